import type { Interaction } from "oidc-provider";
import { findClient } from "../clients/client-store.ts";
import { isPublicClient } from "../clients/client-document.ts";
import { publicClientMaySkip } from "../provider/consent-claims.ts";
import { requestedPrompts } from "../provider/offline-access-prompt.ts";
import { addMs } from "../time.ts";
import { revokeGrants } from "../tokens/token-rows.ts";
import type { ChallengeDeps } from "./challenge-deps.ts";
import { answerChallenge } from "./challenge-verifiers.ts";
import { rejectRequest } from "./reject-request.ts";
import {
  findConsentSession,
  findRememberedConsent,
  saveConsentSession,
} from "./consent-sessions.ts";
import {
  clientIdOf,
  loadInteraction,
  paramsOf,
  requestUrlOf,
  requestedAudienceOf,
  requestedScopeOf,
} from "./interactions.ts";
import type { LoginResult, RedirectTo } from "./login-requests.ts";
import { oidcContextFrom } from "./oidc-context.ts";
import { requestViewOf, type RequestView } from "./request-view.ts";
import { readAcceptConsentBody } from "./request-bodies.ts";

/** Hydra's oAuth2ConsentRequest. */
export interface OAuth2ConsentRequest extends RequestView {
  consent_request_id: string;
  skip: boolean;
  subject: string;
  login_challenge: string;
  login_session_id: string;
  acr: string;
  amr: string[];
  context: unknown;
}

function loginResultOf(interaction: Interaction): Partial<LoginResult> {
  return interaction.lastSubmission?.login ?? {};
}

function subjectOf(interaction: Interaction): string {
  return interaction.session?.accountId ?? loginResultOf(interaction).accountId ?? "";
}

/** Hydra's consent skip: a remembered consent of this subject for this client covers the scopes. */
async function consentSkip(deps: ChallengeDeps, interaction: Interaction): Promise<boolean> {
  const params = paramsOf(interaction);
  if (requestedPrompts(params).includes("consent")) return false;
  const clientId = clientIdOf(interaction);
  const stored = await findClient(deps.db, clientId);
  if (!stored) return false;
  if (
    isPublicClient(stored.client) &&
    !publicClientMaySkip(typeof params.redirect_uri === "string" ? params.redirect_uri : "")
  ) {
    return false;
  }
  const remembered = await findRememberedConsent(
    deps.db,
    subjectOf(interaction),
    clientId,
    deps.now(),
  );
  if (!remembered) return false;
  const granted = new Set(remembered.grantScope);
  return requestedScopeOf(interaction).every((scope) => granted.has(scope));
}

export async function getConsentRequest(
  deps: ChallengeDeps,
  challenge: string,
): Promise<OAuth2ConsentRequest> {
  const interaction = await loadInteraction(deps, challenge, "consent");
  const login = loginResultOf(interaction);
  return {
    ...(await requestViewOf(deps, interaction, challenge)),
    consent_request_id: interaction.cid,
    skip: await consentSkip(deps, interaction),
    subject: subjectOf(interaction),
    login_challenge: login.login_challenge ?? "",
    login_session_id: interaction.session?.uid ?? "",
    acr: login.acr ?? "",
    amr: login.amr ?? [],
    context: login.context ?? {},
  };
}

export async function acceptConsentRequest(
  deps: ChallengeDeps,
  challenge: string,
  body: unknown,
): Promise<RedirectTo> {
  const accept = readAcceptConsentBody(body);
  const interaction = await loadInteraction(deps, challenge, "consent");
  const provider = deps.provider();
  const subject = subjectOf(interaction);
  const clientId = clientIdOf(interaction);
  const login = loginResultOf(interaction);

  // Accepting the same request twice keeps only the last answer (its grant replaces the first).
  const earlier = await findConsentSession(deps.db, interaction.cid);
  if (earlier) await revokeGrants(deps.db, [earlier.grantId]);

  const grantScope = accept.grant_scope ?? [];
  const grant = new provider.Grant({ accountId: subject, clientId });
  const granted = grantScope.filter((scope) => scope !== "");
  if (granted.length > 0) grant.addOIDCScope(granted.join(" "));
  // Hydra answers with whatever was granted, even nothing (Ory's UI sends `[null]` when every
  // scope is unticked): scopes left out are recorded as refused, so oidc-provider issues the code
  // instead of asking for consent again.
  const refused = requestedScopeOf(interaction).filter((scope) => !granted.includes(scope));
  if (refused.length > 0) grant.rejectOIDCScope(refused.join(" "));
  const grantId = await grant.save();

  const now = deps.now();
  const remember = accept.remember ?? false;
  const rememberFor = accept.remember_for ?? 0;
  await saveConsentSession(deps.db, {
    consentRequestId: interaction.cid,
    consentChallenge: challenge,
    grantId,
    subject,
    clientId,
    loginChallenge: login.login_challenge,
    loginSessionId: interaction.session?.uid,
    skip: await consentSkip(deps, interaction),
    grantScope,
    grantAudience: accept.grant_access_token_audience ?? [],
    remember,
    rememberFor,
    sessionAccessToken: accept.session?.access_token ?? {},
    sessionIdToken: accept.session?.id_token ?? {},
    context: accept.context ?? login.context ?? {},
    requestedScope: requestedScopeOf(interaction),
    requestedAudience: requestedAudienceOf(interaction),
    requestUrl: requestUrlOf(deps, interaction),
    acr: login.acr,
    amr: login.amr ?? [],
    oidcContext: oidcContextFrom(paramsOf(interaction)),
    handledAt: now,
    rememberUntil: remember && rememberFor > 0 ? addMs(now, rememberFor * 1000) : undefined,
  });

  return answerChallenge(deps, interaction, "consent", {
    ...interaction.lastSubmission,
    consent: { grantId },
  });
}

export function rejectConsentRequest(
  deps: ChallengeDeps,
  challenge: string,
  body: unknown,
): Promise<RedirectTo> {
  return rejectRequest(deps, challenge, "consent", body);
}
