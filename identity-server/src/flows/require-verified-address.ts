import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isBrowserRequest } from "../http/content-negotiation.ts";
import { HerodotError, internalError } from "../http/errors.ts";
import type { Identity } from "../identity/identity.ts";
import { uiText } from "../text/messages.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { showVerificationUi } from "../selfservice/continue-with.ts";
import { sendErrorWithStatus } from "../http/send-error.ts";
import { uiUrl } from "./flow-errors.ts";
import type { Flow } from "../selfservice/flow.ts";
import { startVerification } from "./verification/flow.ts";

/**
 * Kratos' require_verified_address login hook. Returns false when the identity may sign in;
 * otherwise no session is issued, a verification flow with a fresh code is started for the first
 * address, and the answer points there: JSON and API clients get 403
 * `session_verified_address_required` (a 400 error object, as herodot writes it) with
 * `details.continue_with: [show_verification_ui]`; HTML form posts are redirected (303) to the
 * verification UI. With Kratos' `legacy_require_verified_login_error` behaviour the login flow is
 * re-rendered with 4000010 instead (thrown as a ValidationError for the login error handler).
 * True means the answer was sent (a boolean: a Fastify reply is thenable, awaiting it yields
 * undefined).
 */
export async function refuseUnverifiedLogin(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identity: Identity,
): Promise<boolean> {
  if (!ctx.config.requireVerifiedAddress) return false;
  if (identity.verifiableAddresses.some((address) => address.verified)) return false;
  if (ctx.config.legacyRequireVerifiedLoginError) throw ValidationError.of("", uiText(4000010));
  if (identity.verifiableAddresses.length === 0) {
    throw internalError(
      "A misconfiguration prevents login. Expected to find a verification address but this identity does not have one assigned.",
    );
  }
  const started = await ctx.db
    .transaction()
    .execute((trx) => startVerification(trx, ctx, request, reply, flow, identity, () => true));
  if (!started) return false;
  const url = uiUrl(ctx, "/verification", started.flow.id);
  if (isBrowserRequest(request)) {
    void reply.redirect(url, 303);
    return true;
  }
  const error = new HerodotError(400, {
    id: "session_verified_address_required",
    message: "your email or phone address is not yet verified",
    reason:
      "Your account's email or phone address are not verified yet. Please check your email or phone inbox or re-request verification.",
    details: {
      continue_with: [showVerificationUi(started.flow.id, started.address.value, url)],
    },
  });
  void sendErrorWithStatus(reply, 403, error);
  return true;
}
