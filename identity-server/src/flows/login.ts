import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isJsonRequest } from "../http/content-negotiation.ts";
import { csrfTokenFor } from "../http/csrf.ts";
import { badRequest, notFoundRow } from "../http/errors.ts";
import { FlowBody } from "../http/flow-body.ts";
import { loginStrategiesFor } from "../methods/login-strategies.ts";
import { fetchSession, type ActiveSession } from "../session/session-manager.ts";
import {
  prepareSessionTokenExchange,
  insertFlowWithExchange,
  wantsSessionTokenExchange,
} from "../session/token-exchange.ts";
import { findFlow } from "../store/flows.ts";
import { uiText } from "../text/messages.ts";
import { csrfNode, upsertNode, type SortOptions } from "../ui/nodes.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { alreadyLoggedInForLogin, sessionRequiredForHigherAal } from "./already-logged-in.ts";
import { forwardError } from "../selfservice/errors.ts";
import { sendError } from "../http/send-error.ts";
import { ensureFlowValid, uiUrl, writeFlowError, type FlowErrorPolicy } from "./flow-errors.ts";
import { flowIdFromQuery } from "../selfservice/flow-id.ts";
import { flowJson, type Flow, type FlowType } from "../selfservice/flow.ts";
import { sendAlreadyLoggedIn, sendRedirectOrJson, sorted } from "./flow-responses.ts";
import { sendStoredFlow } from "./get-flow.ts";
import { completeLogin } from "./login-complete.ts";
import {
  addTrustDeviceOption,
  populateFirstFactorLogin,
  populateSecondFactorLogin,
} from "./login-second-factor.ts";
import { newFlow, publicRequestUrl } from "../selfservice/new-flow.ts";
import {
  acceptLoginChallenge,
  loginChallengeOf,
  readLoginRequest,
  sendToOAuth2,
  renderWithLoginRequest,
  withLoginRequest,
} from "./oauth2-login-challenge.ts";
import type { OAuth2LoginRequest } from "../oauth2/challenges/login-requests.ts";

const loginSort: SortOptions = {
  groups: ["oidc", "default", "webauthn", "passkey", "code", "password", "totp", "lookup_secret"],
  keys: ["csrf_token", "identifier", "password"],
};

/** Raised at init when a session exists and neither refresh nor a higher AAL was asked for. */
class AlreadyLoggedIn extends Error {
  readonly requestUrl: string;
  readonly active: ActiveSession;
  constructor(requestUrl: string, active: ActiveSession) {
    super("already logged in");
    this.requestUrl = requestUrl;
    this.active = active;
  }
}

/** What a browser init learnt from its `login_challenge` (Kratos' createBrowserLoginFlow). */
interface OAuth2Init {
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
async function createLoginFlow(
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
    populateFirstFactorLogin(ctx, flow, undefined);
  } else if (flow.refresh) {
    if (flow.requestedAal === "aal1") populateFirstFactorLogin(ctx, flow, active.identity);
    else populateSecondFactorLogin(ctx, flow, active.identity);
  } else if (flow.requestedAal === "aal1" || active.session.aal === "aal2") {
    throw new AlreadyLoggedIn(flow.requestUrl, active);
  } else {
    populateSecondFactorLogin(ctx, flow, active.identity);
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

function errorPolicy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FlowErrorPolicy {
  return {
    kind: "login",
    uiPath: "/login",
    redirectStatus: 303,
    expiredMessageId: 4010001,
    expiredAnswer: "gone",
    sortOptions: loginSort,
    async replace(old) {
      const replacement = await createLoginFlow(ctx, request, reply, old.type);
      replacement.requestUrl = old.requestUrl;
      replacement.returnTo = old.returnTo;
      replacement.oauth2LoginChallenge = old.oauth2LoginChallenge;
      return replacement;
    },
    render: (flow) => renderWithLoginRequest(ctx, flow),
  };
}

/**
 * A step that is not the end of the login (a code was sent): Kratos answers JSON and API clients
 * 400 with the flow (kratos-behaviour §0-2), browsers 303 to the login UI.
 */
async function answerLoginStep(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<FastifyReply> {
  if (flow.type === "browser" && !isJsonRequest(request)) {
    return reply.redirect(uiUrl(ctx, "/login", flow.id), 303);
  }
  return reply.code(400).send(flowJson(await withLoginRequest(ctx, flow)));
}

async function submitLogin(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const policy = errorPolicy(ctx, request, reply);
  let flow: Flow | undefined;
  try {
    const id = flowIdFromQuery(request.query);
    flow = await findFlow(ctx.db, "login", id);
    if (!flow) throw notFoundRow();
  } catch (error) {
    return writeFlowError(ctx, request, reply, undefined, error, policy);
  }
  try {
    const existing = await fetchSession(ctx, request);
    if (
      existing &&
      !flow.refresh &&
      !(flow.requestedAal === "aal2" && existing.session.aal !== "aal2")
    ) {
      if (isJsonRequest(request) || flow.type === "api") throw alreadyLoggedInForLogin();
      return reply.redirect(ctx.config.defaultReturnUrl, 303);
    }
    if (!existing && flow.requestedAal === "aal2") throw sessionRequiredForHigherAal();
    ensureFlowValid(flow, ctx.now());
    // The one read of the submission: every strategy decodes its fields from it.
    const body = await FlowBody.read(request);
    const identity = existing?.identity;
    const aal = flow.requestedAal === "aal2" && identity ? "aal2" : "aal1";
    const strategy = loginStrategiesFor(aal).find((s) => s.responsible(body));
    if (!strategy) throw ValidationError.of("", uiText(4010002));
    const outcome = await strategy.submit({ ctx, request, reply, flow, body, identity });
    if (outcome.kind === "continue") {
      if (identity) addTrustDeviceOption(ctx, flow, identity);
      return await answerLoginStep(ctx, request, reply, flow);
    }
    return await completeLogin({
      ctx,
      request,
      reply,
      flow,
      body,
      identity: outcome.identity,
      existing,
      factor: { method: strategy.id, aal: strategy.aal },
      now: ctx.now(),
    });
  } catch (error) {
    return writeFlowError(ctx, request, reply, flow, error, policy);
  }
}

async function acceptAtInit(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  challenge: string,
  active: ActiveSession,
): Promise<FastifyReply> {
  try {
    const redirectTo = await acceptLoginChallenge(ctx, challenge, active.session);
    return sendToOAuth2(request, reply, redirectTo);
  } catch (error) {
    return forwardError(ctx, request, reply, error);
  }
}

export function registerLoginRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/self-service/login/browser", async (request, reply) => {
    let oauth2: OAuth2Init | undefined;
    try {
      const challenge = loginChallengeOf(ctx, publicRequestUrl(ctx, request));
      if (challenge) oauth2 = { challenge, loginRequest: await readLoginRequest(ctx, challenge) };
      const flow = await createLoginFlow(ctx, request, reply, "browser", oauth2);
      return sendRedirectOrJson(
        request,
        reply,
        flow,
        `${ctx.config.uiBaseUrl}/login?flow=${flow.id}`,
      );
    } catch (error) {
      if (error instanceof AlreadyLoggedIn && oauth2) {
        // Only reached when the OAuth2 service may skip (else refresh was forced): the session
        // answers the login request at once.
        return acceptAtInit(ctx, request, reply, oauth2.challenge, error.active);
      }
      if (error instanceof AlreadyLoggedIn) {
        return sendAlreadyLoggedIn(
          ctx,
          request,
          reply,
          alreadyLoggedInForLogin(),
          error.requestUrl,
        );
      }
      return forwardError(ctx, request, reply, error);
    }
  });

  app.get("/self-service/login/api", async (request, reply) => {
    try {
      return reply.send(flowJson(await createLoginFlow(ctx, request, reply, "api")));
    } catch (error) {
      return sendError(reply, error instanceof AlreadyLoggedIn ? alreadyLoggedInForLogin() : error);
    }
  });

  app.get("/self-service/login/flows", (request, reply) =>
    sendStoredFlow(ctx, request, reply, "login"),
  );
  app.post("/self-service/login", (request, reply) => submitLogin(ctx, request, reply));
  app.get("/self-service/login", (request, reply) => submitLogin(ctx, request, reply));
}
