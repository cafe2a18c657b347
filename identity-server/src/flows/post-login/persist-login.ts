import { persistSession } from "../../session/session-manager.ts";
import { updateFlow, updateFlowActiveMethod } from "../../store/flows.ts";
import { trustDevice } from "../../trusted-devices/device-trust.ts";
import type { LoginCompletion, LoginSession } from "./login-completion.ts";

/** The device just trusted: its token goes into the trusted-device cookie. */
export type TrustedDevice = Awaited<ReturnType<typeof trustDevice>>;

/**
 * One transaction for what the login changes: the flow (with its active method), the session and,
 * when asked, the browser's trust.
 */
export async function persistLogin(
  c: LoginCompletion,
  login: LoginSession,
  wantsTrust: boolean,
): Promise<TrustedDevice | undefined> {
  const { ctx, flow, factor } = c;
  flow.active = factor.method;
  return ctx.db.transaction().execute(async (trx) => {
    // The password strategy leaves the stored flow as it was, but for the active method.
    if (factor.method === "password") await updateFlowActiveMethod(trx, flow, c.now);
    else await updateFlow(trx, flow, c.now);
    await persistSession(trx, login.session, login.token, { isNew: !login.reused });
    return wantsTrust ? trustDevice(ctx, trx, c.request, c.identity.id) : undefined;
  });
}
