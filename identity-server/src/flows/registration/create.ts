import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { registrationStrategies } from "../../methods/registration-strategies.ts";
import {
  prepareSessionTokenExchange,
  insertFlowWithExchange,
  wantsSessionTokenExchange,
} from "../../session/token-exchange.ts";
import { csrfNode, upsertNode, type SortOptions } from "../../ui/nodes.ts";
import { type Flow, type FlowType } from "../../selfservice/flow.ts";
import { sorted } from "../flow-responses.ts";
import { newFlow } from "../../selfservice/new-flow.ts";
import type { OAuth2LoginRequest } from "../../oauth2/challenges/login-requests.ts";

/** Schema order with the password right after the first trait (Kratos' PasswordLoginOrder). */
export function registrationSort(ctx: ServerContext): SortOptions {
  const traitKeys = ctx.schema.traitPaths.map((p) => p.name);
  const [first, ...rest] = traitKeys;
  return {
    groups: [
      "oidc",
      "saml",
      "default",
      "webauthn",
      "passkey",
      "code",
      "password",
      "captcha",
      "profile",
    ],
    keys: first ? ["csrf_token", first, "password", ...rest] : ["csrf_token", "password"],
  };
}

export async function createRegistrationFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
  oauth2?: { challenge: string; loginRequest: OAuth2LoginRequest },
): Promise<Flow> {
  const flow = newFlow(ctx, request, reply, "registration", type);
  flow.oauth2LoginChallenge = oauth2?.challenge;
  flow.oauth2LoginRequest = oauth2?.loginRequest;
  for (const strategy of registrationStrategies()) await strategy.populate(ctx, flow);
  if (type === "browser") upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
  sorted(flow, registrationSort(ctx));
  const storeExchange = wantsSessionTokenExchange(flow)
    ? prepareSessionTokenExchange(flow)
    : undefined;
  await insertFlowWithExchange(ctx, flow, storeExchange);
  return flow;
}
