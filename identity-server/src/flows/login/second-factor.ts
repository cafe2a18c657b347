import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";
import { hasSecondFactor } from "../../identity/second-factors.ts";
import { loginStrategiesFor } from "../../methods/login-strategies.ts";
import { trustDeviceNode } from "../../trusted-devices/trust-device-node.ts";
import { upsertNode } from "../../ui/nodes.ts";
import type { Flow } from "../../selfservice/flow.ts";

/**
 * The first-factor form of a login flow: every first factor's form, for the session's identity
 * when the flow re-authenticates it (refresh), for anyone before a session.
 */
export async function populateFirstFactorLogin(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity | undefined,
): Promise<void> {
  for (const strategy of loginStrategiesFor("aal1")) await strategy.populate(ctx, flow, identity);
}

/**
 * The second-factor form of an aal2 login flow: every second factor the identity has (in the
 * registry's order) and, for browsers, our `trust_device` checkbox.
 */
export async function populateSecondFactorLogin(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
): Promise<void> {
  for (const strategy of loginStrategiesFor("aal2")) await strategy.populate(ctx, flow, identity);
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
