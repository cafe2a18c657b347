import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isBrowserRequest, isJsonRequest } from "../http/content-negotiation.ts";
import { badRequest } from "../http/errors.ts";
import { findSessionById } from "../store/sessions.ts";
import { updateFlow } from "../store/flows.ts";
import { flowJson, type Flow } from "./flow.ts";
import { acceptLoginChallenge } from "./oauth2-login-challenge.ts";
import { oauth2SessionKey } from "./verification-flow.ts";

/**
 * Kratos' verification handler after `passed_challenge`, for a flow a registration started while
 * answering an OAuth2 login challenge: the login request is accepted with the registration's
 * session, then a form browser is sent to the OAuth2 service (303) and an SPA gets the flow whose
 * "continue" link points there. False when the flow has no challenge or the client is neither.
 * (A boolean, not the reply: a Fastify reply is thenable, so awaiting one yields undefined.)
 */
export async function continueToOAuth2(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<boolean> {
  const challenge = flow.oauth2LoginChallenge;
  if (!challenge || flow.state !== "passed_challenge") return false;
  const spa = flow.type === "browser" && isJsonRequest(request);
  if (!isBrowserRequest(request) && !spa) return false;

  const sessionId = flow.internalContext[oauth2SessionKey];
  const session =
    typeof sessionId === "string" ? await findSessionById(ctx.db, sessionId) : undefined;
  if (!session?.active || session.expiresAt < ctx.now()) {
    throw badRequest("No session was found for this flow. Please retry the authentication.");
  }
  const redirectTo = await acceptLoginChallenge(ctx, challenge, session);
  if (!spa) {
    void reply.redirect(redirectTo, 303);
    return true;
  }

  for (const node of flow.ui.nodes) {
    if (node.attributes.node_type === "a" && node.attributes.id === "continue") {
      node.attributes.href = redirectTo;
    }
  }
  await updateFlow(ctx.db, flow, ctx.now());
  void reply.send(flowJson(flow));
  return true;
}
