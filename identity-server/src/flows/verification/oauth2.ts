import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { isBrowserRequest, isJsonRequest } from "../../http/content-negotiation.ts";
import { badRequest } from "../../http/errors.ts";
import { findSessionById } from "../../store/sessions.ts";
import { flowJson, type Flow } from "../../selfservice/flow.ts";
import { acceptLoginChallenge } from "../oauth2-login-challenge.ts";
import { oauth2SessionKey } from "./flow.ts";

/**
 * Kratos' verification handler after `passed_challenge`, for a flow a registration started while
 * answering an OAuth2 login challenge: the login request is accepted with the registration's
 * session, then a form browser is sent to the OAuth2 service (303) and an SPA gets the flow whose
 * "continue" link points there (in the answer only: the stored flow keeps its own link). False
 * when the flow has no challenge or the client is neither.
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

  // Only this answer carries the link: its login_verifier finishes the accepted login at the
  // OAuth2 service, which keeps verifiers only as hashes, so it is not written into the stored
  // flow (Kratos saves it there; a later GET of the flow shows the plain continue link instead).
  const ui = structuredClone(flow.ui);
  for (const node of ui.nodes) {
    if (node.attributes.node_type === "a" && node.attributes.id === "continue") {
      node.attributes.href = redirectTo;
    }
  }
  void reply.send(flowJson({ ...flow, ui }));
  return true;
}
