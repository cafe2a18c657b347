import { createHash } from "node:crypto";
import type { Interaction } from "oidc-provider";
import { visitLoginUi } from "../provider/interaction-policy.ts";
import { epochSeconds } from "../time.ts";
import { deleteProviderSessions } from "../tokens/token-rows.ts";
import type { ChallengeDeps } from "./challenge-deps.ts";
import { answerChallenge } from "./challenge-verifiers.ts";
import { rejectRequest } from "./reject-request.ts";
import { loadInteraction, requestUrlOf } from "./interactions.ts";
import {
  deleteLoginSessions,
  findRememberedLoginSession,
  type LoginSession,
} from "./login-sessions.ts";
import { requestViewOf, type RequestView } from "./request-view.ts";
import { readAcceptLoginBody } from "./request-bodies.ts";

/** Hydra's oAuth2LoginRequest. */
export interface OAuth2LoginRequest extends RequestView {
  skip: boolean;
  subject: string;
  session_id: string;
}

/** Hydra's oAuth2RedirectTo. */
export interface RedirectTo {
  redirect_to: string;
}

/** What the accepted login puts into the interaction result (read again on resume). */
export interface LoginResult {
  [key: string]: unknown;
  accountId: string;
  remember: boolean;
  ts: number;
  acr?: string;
  amr?: string[];
  remember_for: number;
  context: unknown;
  identity_provider_session_id?: string;
  login_challenge: string;
  skip: boolean;
}

/**
 * The remembered login Hydra would reuse for this request (skip=true): the browser has a session,
 * the login prompt has no reason but our "always visit the UI" check, and the session was
 * remembered and has not expired.
 */
async function rememberedLogin(
  deps: ChallengeDeps,
  interaction: Interaction,
): Promise<LoginSession | undefined> {
  const session = interaction.session;
  if (!session?.accountId) return undefined;
  if (interaction.prompt.reasons.some((reason) => reason !== visitLoginUi)) return undefined;
  return findRememberedLoginSession(deps.db, session.uid, session.accountId, deps.now());
}

/** Without a browser session the id is not known yet; a stable stand-in per challenge is given. */
function sessionIdOf(interaction: Interaction, challenge: string): string {
  return (
    interaction.session?.uid ??
    createHash("sha256").update(`login session ${challenge}`).digest("base64url").slice(0, 21)
  );
}

export async function getLoginRequest(
  deps: ChallengeDeps,
  challenge: string,
): Promise<OAuth2LoginRequest> {
  const interaction = await loadInteraction(deps, challenge, "login");
  const remembered = await rememberedLogin(deps, interaction);
  return {
    ...(await requestViewOf(deps, interaction, challenge)),
    skip: remembered !== undefined,
    subject: remembered?.subject ?? "",
    session_id: sessionIdOf(interaction, challenge),
  };
}

export async function acceptLoginRequest(
  deps: ChallengeDeps,
  challenge: string,
  body: unknown,
): Promise<RedirectTo> {
  const accept = readAcceptLoginBody(body);
  const interaction = await loadInteraction(deps, challenge, "login");
  const remembered = await rememberedLogin(deps, interaction);
  if (remembered && remembered.subject !== accept.subject) {
    // Hydra: a remembered user cannot silently become someone else; ask for a fresh login.
    const url = new URL(requestUrlOf(deps, interaction));
    url.searchParams.set("prompt", "login");
    return { redirect_to: url.href };
  }
  const previous = interaction.session;
  if (!remembered && previous?.accountId && previous.accountId !== accept.subject) {
    // Another user signs in: the old browser session ends here, as Hydra replaces its cookie.
    await deleteProviderSessions(deps.db, { uid: previous.uid });
    await deleteLoginSessions(deps.db, { id: previous.uid });
    interaction.session = undefined;
  }
  const result: LoginResult = {
    accountId: accept.subject,
    // Hydra forces remember for a skipped login so that the next request may skip again.
    remember: remembered ? true : (accept.remember ?? false),
    ts: remembered ? epochSeconds(remembered.authenticatedAt) : epochSeconds(deps.now()),
    ...(accept.acr ? { acr: accept.acr } : {}),
    ...(accept.amr ? { amr: accept.amr } : {}),
    remember_for: accept.remember_for ?? 0,
    context: accept.context ?? {},
    ...(accept.identity_provider_session_id
      ? { identity_provider_session_id: accept.identity_provider_session_id }
      : {}),
    login_challenge: challenge,
    skip: remembered !== undefined,
  };
  return answerChallenge(deps, interaction, "login", { login: result });
}

export function rejectLoginRequest(
  deps: ChallengeDeps,
  challenge: string,
  body: unknown,
): Promise<RedirectTo> {
  return rejectRequest(deps, challenge, "login", body);
}
