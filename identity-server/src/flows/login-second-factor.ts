import type { ServerContext } from "../context.ts";
import type { Identity } from "../identity/identity.ts";
import { hasSecondFactor } from "../identity/second-factors.ts";
import { populateCodeMfaLogin } from "../methods/code/mfa-login.ts";
import { populateLookupLogin } from "../methods/lookup/lookup-login.ts";
import { populateTotpLogin } from "../methods/totp/totp-login.ts";
import { trustDeviceNode } from "../trusted-devices/trust-device-node.ts";
import { upsertNode } from "../ui/nodes.ts";
import type { Flow } from "./flow.ts";

/**
 * The second-factor form of an aal2 login flow: every second factor the identity has (code
 * addresses, authenticator app, backup codes) and, for browsers, our `trust_device` checkbox.
 */
export function populateSecondFactorLogin(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
): void {
  populateCodeMfaLogin(ctx, flow, identity);
  populateTotpLogin(flow, identity);
  populateLookupLogin(flow, identity);
  addTrustDeviceOption(ctx, flow, identity);
}

/**
 * Browsers of an identity with a second factor may ask to be trusted (not native apps). Trusted
 * devices are ours: strict mode (IDENTITY_ORY_EXTENSIONS=false) offers no checkbox.
 */
export function addTrustDeviceOption(ctx: ServerContext, flow: Flow, identity: Identity): void {
  if (!ctx.config.oryExtensions) return;
  if (flow.type === "browser" && hasSecondFactor(identity, ctx.config.secondFactor)) {
    upsertNode(flow.ui, trustDeviceNode(ctx));
  }
}
