import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { badRequest } from "../../http/errors.ts";
import { fetchSession, type ActiveSession } from "../../session/session-manager.ts";
import {
  prepareSessionTokenExchange,
  insertFlowWithExchange,
  wantsSessionTokenExchange,
} from "../../session/token-exchange.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, upsertNode, type SortOptions } from "../../ui/nodes.ts";
import { sessionRequiredForHigherAal } from "../already-logged-in.ts";
import { type Flow, type FlowType } from "../../selfservice/flow.ts";
import { sorted } from "../flow-responses.ts";
import { populateFirstFactorLogin, populateSecondFactorLogin } from "./second-factor.ts";
import { newFlow, publicRequestUrl } from "../../selfservice/new-flow.ts";
import type { OAuth2LoginRequest } from "../../oauth2/challenges/login-requests.ts";

export const loginSort: SortOptions = {
  groups: ["oidc", "default", "webauthn", "passkey", "code", "password", "totp", "lookup_secret"],
  keys: ["csrf_token", "identifier", "password"],
};

/** Raised at init when a session exists and neither refresh nor a higher AAL was asked for. */
export class AlreadyLoggedIn extends Error {
  readonly requestUrl: string;
  readonly active: ActiveSession;
  constructor(requestUrl: string, active: ActiveSession) {
    super("already logged in");
    this.requestUrl = requestUrl;
    this.active = active;
  }
}

/** What a browser init learnt from its `login_challenge` (Kratos' createBrowserLoginFlow). */
export interface OAuth2Init {
  challenge: string;
  loginRequest: OAuth2LoginRequest;
}

/** Kratos sets `refresh=true` in the query (re-encoded, keys sorted) unless Hydra may skip. */
function forcedRefreshUrl(requestUrl: string): string {
  const url = new URL(requestUrl);
  url.searchParams.set("refresh", "true");
  url.searchParams.sort();
  return url.href;
}

/** Kratos' NewLoginFlow: builds and stores the form that fits the request and any session. */
export async function createLoginFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
  oauth2?: OAuth2Init,
): Promise<Flow> {
  const requestUrl = publicRequestUrl(ctx, request);
  const flow = newFlow(ctx, request, reply, "login", type, {
    requestUrl: oauth2 && !oauth2.loginRequest.skip ? forcedRefreshUrl(requestUrl) : requestUrl,
  });
  flow.oauth2LoginChallenge = oauth2?.challenge;
  flow.oauth2LoginRequest = oauth2?.loginRequest;
  if (flow.requestedAal !== "aal1" && flow.requestedAal !== "aal2") {
    throw badRequest(
      `Unable to parse AuthenticationMethod Assurance Level (AAL): expected one of [aal1, aal2] but got ${flow.requestedAal}`,
    );
  }
  const active = await fetchSession(ctx, request);
  let storeExchange: ReturnType<typeof prepareSessionTokenExchange> | undefined;
  if (!active) {
    if (wantsSessionTokenExchange(flow)) storeExchange = prepareSessionTokenExchange(flow);
    if (flow.requestedAal === "aal2") throw sessionRequiredForHigherAal();
    flow.refresh = false;
    await populateFirstFactorLogin(ctx, flow, undefined);
  } else if (flow.refresh) {
    if (flow.requestedAal === "aal1") await populateFirstFactorLogin(ctx, flow, active.identity);
    else await populateSecondFactorLogin(ctx, flow, active.identity);
  } else if (flow.requestedAal === "aal1" || active.session.aal === "aal2") {
    throw new AlreadyLoggedIn(flow.requestUrl, active);
  } else {
    await populateSecondFactorLogin(ctx, flow, active.identity);
  }
  if (flow.refresh) flow.ui.messages = [uiText(1010003)];
  if (active && flow.requestedAal === "aal2" && active.session.aal !== "aal2") {
    flow.ui.messages = [...(flow.ui.messages ?? []), uiText(1010004)];
  }
  if (type === "browser") upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
  sorted(flow, loginSort);
  await insertFlowWithExchange(ctx, flow, storeExchange);
  return flow;
}
