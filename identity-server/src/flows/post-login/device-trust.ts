import { hasSecondFactor } from "../../identity/second-factors.ts";
import { addAuthenticationMethod } from "../../session/session-manager.ts";
import type { Session } from "../../session/session.ts";
import { trustDevice, trustedDeviceOf } from "../../trusted-devices/device-trust.ts";
import type { LoginCompletion } from "./login-completion.ts";
import type { LoginWrites } from "./persist-login.ts";

/** The device just trusted: its token goes into the trusted-device cookie. */
export type TrustedDevice = Awaited<ReturnType<typeof trustDevice>>;

/**
 * How a trusted device shows in the AMR. The OpenAPI enum of methods has no "trusted device", so
 * it is `deviceauthn` (authentication by a device) at aal2, named by `provider: trusted_device`.
 */
const trustedDeviceFactor = {
  method: "deviceauthn",
  aal: "aal2",
  provider: "trusted_device",
} as const;

/**
 * Trusted devices (ours; strict mode has none): a trusted browser completes the second factor of
 * a first-factor login, and a second factor with `trust_device` ticked asks for the browser to be
 * trusted. Returns whether it asked.
 */
export async function applyDeviceTrust(c: LoginCompletion, session: Session): Promise<boolean> {
  const { ctx, flow, factor, identity } = c;
  const trustable = flow.type === "browser" && ctx.config.oryExtensions;
  if (
    trustable &&
    factor.aal === "aal1" &&
    session.aal !== "aal2" &&
    hasSecondFactor(identity, ctx.config.secondFactor) &&
    (await trustedDeviceOf(ctx, c.request, identity.id))
  ) {
    // Only the second factor is skipped: the password was just checked.
    addAuthenticationMethod(session, trustedDeviceFactor, c.now);
  }
  return (
    trustable &&
    factor.aal === "aal2" &&
    c.body.fields([{ name: "trust_device", type: "boolean" }]).trust_device === true
  );
}

/** The login's write after the session: the browser trusted, when `trust_device` asked for it. */
export function trustWrites(
  c: LoginCompletion,
  wantsTrust: boolean,
): LoginWrites<TrustedDevice | undefined> {
  return {
    after: (trx) =>
      wantsTrust ? trustDevice(c.ctx, trx, c.request, c.identity.id) : Promise.resolve(undefined),
  };
}
