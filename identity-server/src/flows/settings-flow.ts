import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { csrfTokenForFlowType } from "../http/csrf.ts";
import { identityJson, type Identity } from "../identity/identity.ts";
import { populatePasswordSettings } from "../methods/password/settings.ts";
import { populateProfileSettings } from "../methods/profile/settings.ts";
import { findIdentity } from "../store/identities.ts";
import { sortNodes, type SortOptions } from "../ui/nodes.ts";
import { flowJson, type Flow, type FlowType } from "./flow.ts";
import { newFlow } from "./new-flow.ts";

/** Kratos' settings order: default, profile, password, then the second-factor groups. */
export function settingsSort(ctx: ServerContext): SortOptions {
  return {
    groups: [
      "default",
      "profile",
      "password",
      "oidc",
      "lookup_secret",
      "webauthn",
      "passkey",
      "totp",
    ],
    keys: ["csrf_token", ...ctx.schema.traitPaths.map((p) => p.name), "password"],
  };
}

/**
 * Fills the settings form from scratch for the identity: every settings strategy adds its group.
 * Issue 4's methods (TOTP, backup codes, trusted devices) add their populate calls here.
 */
export function populateSettings(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identity: Identity,
): void {
  flow.ui.nodes = [];
  const csrfToken = csrfTokenForFlowType(request, reply, ctx.cookies, flow.type);
  populateProfileSettings(ctx, flow, identity, csrfToken);
  populatePasswordSettings(flow, csrfToken);
  flow.ui.nodes = sortNodes(flow.ui.nodes, settingsSort(ctx));
}

/** A new settings flow for the identity (Kratos' settings Handler.NewFlow); not yet stored. */
export function buildSettingsFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: Identity,
  type: FlowType,
): Flow {
  const flow = newFlow(ctx, request, reply, "settings", type);
  flow.state = "show_form";
  flow.identityId = identity.id;
  populateSettings(ctx, request, reply, flow, identity);
  return flow;
}

/** The settings flow's JSON with its identity as it is now (without credentials). */
export async function renderSettingsFlow(
  ctx: ServerContext,
  flow: Flow,
): Promise<Record<string, unknown>> {
  const identity = flow.identityId ? await findIdentity(ctx.db, flow.identityId) : undefined;
  return flowJson(flow, {
    identity: identity ? identityJson(identity, { publicBaseUrl: ctx.config.publicBaseUrl }) : {},
  });
}
