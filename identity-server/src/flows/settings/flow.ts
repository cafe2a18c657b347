import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { csrfTokenForFlowType } from "../../http/csrf.ts";
import { identityJson, type Identity } from "../../identity/identity.ts";
import { settingsStrategies } from "../../methods/settings-strategies.ts";
import { findIdentity } from "../../store/identities.ts";
import type { Executor } from "../../store/schema.ts";
import { sortNodes, type SortOptions } from "../../ui/nodes.ts";
import { flowJson, type Flow, type FlowType } from "../../selfservice/flow.ts";
import { newFlow } from "../../selfservice/new-flow.ts";

/**
 * Kratos' settings order: default, profile, password, then the second-factor groups; our `code`
 * group (codes as a second factor) comes last. Within totp, the setup nodes come before our
 * trusted-devices list.
 */
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
      "code",
    ],
    keys: [
      "csrf_token",
      ...ctx.schema.traitPaths.map((p) => p.name),
      "password",
      "totp_qr",
      "totp_secret_key",
      "totp_code",
      "totp_unlink",
      "totp-trusted-devices",
      "totp_device_untrust",
    ],
  };
}

/**
 * Fills the settings form from scratch for the identity: every settings strategy adds its group.
 * `db` is where trusted devices are read, so a caller inside a transaction sees its own changes.
 */
export async function populateSettings(
  ctx: ServerContext,
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identity: Identity,
): Promise<void> {
  flow.ui.nodes = [];
  const csrfToken = csrfTokenForFlowType(request, reply, ctx.cookies, flow.type);
  for (const strategy of settingsStrategies()) {
    await strategy.populate({ ctx, db, request, flow, identity, csrfToken });
  }
  flow.ui.nodes = sortNodes(flow.ui.nodes, settingsSort(ctx));
}

/** A new settings flow for the identity (Kratos' settings Handler.NewFlow); not yet stored. */
export async function buildSettingsFlow(
  ctx: ServerContext,
  db: Executor,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: Identity,
  type: FlowType,
): Promise<Flow> {
  const flow = newFlow(ctx, request, reply, "settings", type);
  flow.state = "show_form";
  flow.identityId = identity.id;
  await populateSettings(ctx, db, request, reply, flow, identity);
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
