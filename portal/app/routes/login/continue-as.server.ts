import { LoginFlowFromJSON, readIdentityAnswer } from "@portal/client";
import type { IdentityClient, LoginFlow } from "@portal/client";
import { data, redirect } from "react-router";
import { getConfig } from "../../config.server.ts";
import type { FlowArgs } from "../../flows/flow-args.server.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { inputValue } from "../../flows/node-filters.ts";
import { isCrossSitePost } from "../../http/cross-site-post.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import {
  callOAuth2,
  oauth2ProblemPage,
  redirectToOAuth2,
} from "../../http/oauth2-answer.server.ts";
import { oauth2AdminFor } from "../../http/oauth2.server.ts";
import type { MessageKey } from "../../i18n/translator.ts";
import { reauthenticationReason, sessionInactive } from "./reauthentication.ts";
import type { SessionView } from "./reauthentication.ts";

/**
 * "Continue as <account>" (issue 14): an OAuth2 login that meets the portal's own session.
 *
 * Kratos forces `refresh=true` on every login challenge Hydra cannot skip, so a person signed in
 * at the portal who then opens the agency product types the password again. Hydra lets the login
 * provider accept a login request for the identity it has already authenticated; the portal does
 * so itself, for the browser's own session, after the person said "Continue". It never does when
 * the relying party asked for a new authentication (reauthentication.ts).
 */

/** Hydra's acceptOAuth2LoginRequest body, as the SDK types it. */
type AcceptOAuth2LoginRequest = NonNullable<
  Parameters<IdentityClient["oauth2"]["acceptOAuth2LoginRequestRaw"]>[0]["acceptOAuth2LoginRequest"]
>;

/** The posted field naming the identity the button showed; the portal keeps it to itself. */
export const continueAsField = "continue_as";

/** What the page shows for "Continue as": nothing the server trusts on the way back. */
export interface ContinueAsOffer {
  /** The identity id the button is for: the action refuses if the session is someone else's. */
  subject: string;
  /** E-mail, phone or username of the account, as shown. */
  account: string;
  csrfToken: string;
  challenge: string;
}

/** A Kratos session as whoami answers it, with what "Continue" sends to Hydra. */
export interface SessionRecord extends SessionView {
  identity: { id: string; traits?: unknown };
  authentication_methods?: readonly { method?: string }[];
}

/** The browser's session (whoami with its cookies): the session, or undefined with no valid one. */
export async function readSession(
  frontend: IdentityClient["frontend"],
): Promise<SessionRecord | undefined> {
  const answer = await readIdentityAnswer(() => frontend.toSessionRaw({}));
  if (answer.status !== 200 || !isRecord(answer.body)) return undefined;
  const { id, identity } = answer.body;
  if (typeof id !== "string" || !isRecord(identity) || typeof identity.id !== "string") {
    return undefined;
  }
  return answer.body as unknown as SessionRecord;
}

/** The account as people know it: e-mail, phone or username from the identity's traits. */
function accountLabel(identity: { traits?: unknown }): string {
  const traits = isRecord(identity.traits) ? identity.traits : {};
  for (const name of ["email", "phone", "username"]) {
    const value = traits[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return "";
}

function readLoginRequest(context: FlowArgs["context"], challenge: string) {
  const oauth2 = oauth2AdminFor(context);
  return callOAuth2(() => oauth2.getOAuth2LoginRequestRaw({ loginChallenge: challenge }));
}

/**
 * For the login loader: the offer to continue as the session's account, when the flow is the
 * re-authentication Kratos forced on an OAuth2 login and nothing asks for a new one.
 */
export async function continueAsOffer(
  args: FlowArgs,
  flow: LoginFlow,
  session: SessionRecord | undefined,
): Promise<ContinueAsOffer | undefined> {
  const challenge = flow.oauth2_login_challenge ?? undefined;
  const csrfToken = inputValue(flow.ui.nodes, "csrf_token");
  if (!challenge || flow.refresh !== true || !session || csrfToken === undefined) return undefined;
  if (sessionInactive(session, new Date())) return undefined;
  const answer = await readLoginRequest(args.context, challenge);
  // Hydra skips remembered logins itself (Kratos accepts those at once); unreadable: ask.
  if (!answer.ok || answer.data.skip === true) return undefined;
  if (reauthenticationReason(answer.data, session, new Date()) !== undefined) return undefined;
  return {
    subject: session.identity.id,
    account: accountLabel(session.identity) || session.identity.id,
    csrfToken,
    challenge,
  };
}

/** Why "Continue" was refused, shown on the login page (the page then offers what is left). */
export type ContinueAsRefusal = Extract<
  MessageKey,
  "login.continueAs.sessionEnded" | "login.continueAs.sessionChanged" | "notice.somethingWentWrong"
>;

function refused(key: ContinueAsRefusal, status: number) {
  return data({ continueAsRefusal: key }, { status });
}

/**
 * POST "Continue": everything is checked again on the server, against the services' own records,
 * never the form: the post is the portal's own (same origin, the flow's CSRF token read back with
 * the browser's cookies), the flow still carries the challenge, the browser's session is valid
 * and belongs to the identity the button named, the OAuth2 service still waits for this login
 * and nothing asks for a new authentication. Only then is the login accepted, as Kratos accepts
 * one after a sign-in (hydra/hydra.go AcceptLoginRequest).
 */
export async function submitContinueAs(args: FlowArgs, flowId: string, form: FormData) {
  if (isCrossSitePost(args.request, getConfig().publicUrl)) {
    return refused("notice.somethingWentWrong", 403);
  }
  const { frontend } = identityFor(args.request, args.context);
  const read = await readIdentityAnswer(() => frontend.getLoginFlowRaw({ id: flowId }));
  if (read.status !== 200 || !isRecord(read.body)) return refused("notice.somethingWentWrong", 403);
  const flow = LoginFlowFromJSON(read.body);
  const challenge = flow.oauth2_login_challenge ?? undefined;
  const expected = inputValue(flow.ui.nodes, "csrf_token");
  const posted = form.get("csrf_token");
  if (!challenge || expected === undefined || typeof posted !== "string" || posted !== expected) {
    return refused("notice.somethingWentWrong", 403);
  }

  const session = await readSession(frontend);
  if (!session) return refused("login.continueAs.sessionEnded", 401);
  if (form.get(continueAsField) !== session.identity.id) {
    return refused("login.continueAs.sessionChanged", 409);
  }

  const request = await readLoginRequest(args.context, challenge);
  // Answered already (410), unknown or expired: say so. Until the browser brings a verifier
  // back, an accepted request still reads as waiting and a second "Continue" (another tab, a
  // double submission) accepts it again, with a new verifier; only one verifier can be spent,
  // and only in the browser that started the request.
  if (!request.ok) return oauth2ProblemPage(args.locale, problemOf(request.status));
  if (reauthenticationReason(request.data, session, new Date()) !== undefined) {
    // The page asks for the password instead: its loader no longer offers to continue.
    return redirect(`${args.url.pathname}${args.url.search}`);
  }

  const accepted = await callOAuth2(() =>
    oauth2AdminFor(args.context).acceptOAuth2LoginRequestRaw({
      loginChallenge: challenge,
      acceptOAuth2LoginRequest: acceptanceFor(session),
    }),
  );
  if (!accepted.ok) return oauth2ProblemPage(args.locale, problemOf(accepted.status));
  return redirectToOAuth2(accepted.data.redirect_to);
}

/** An unreachable or failing service is "unavailable"; every 4xx (410 used, 404, 401) "expired". */
function problemOf(status: number) {
  return status === 0 || status >= 500 ? "unavailable" : "expired";
}

/**
 * What Kratos sends when it accepts a login (hydra/hydra.go AcceptLoginRequest): the identity as
 * subject, the session as identity_provider_session_id, each authentication method once as amr,
 * and `acr`, the session's assurance level, as the embedded identity service sends it.
 *
 * Unlike Kratos it is not remembered. Hydra records the acceptance time as the login's
 * authenticated_at (its accept has no field for it) and skips later requests itself, with
 * `max_age` measured from that time and `acr_values` not checked at all: remembered, a click on
 * "Continue" would pass for a fresh password. Not remembered, every later OAuth2 login comes
 * back to the portal, which checks it against the session's own authenticated_at and AAL.
 */
export function acceptanceFor(session: SessionRecord): AcceptOAuth2LoginRequest {
  const methods = (session.authentication_methods ?? [])
    .map((entry) => entry.method)
    .filter((method): method is string => typeof method === "string" && method !== "");
  return {
    subject: session.identity.id,
    identity_provider_session_id: session.id,
    remember: false,
    amr: [...new Set(methods)],
    ...(session.authenticator_assurance_level
      ? { acr: session.authenticator_assurance_level }
      : {}),
  };
}
