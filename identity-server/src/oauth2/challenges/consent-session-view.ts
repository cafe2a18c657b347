import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { isoSeconds } from "../time.ts";
import { clientView } from "./client-view.ts";
import type { ConsentSession } from "./consent-sessions.ts";

/** Hydra's oAuth2ConsentSession (flow.ToListConsentSessionResponse). */
export async function consentSessionJson(
  db: OAuth2Db,
  session: ConsentSession,
): Promise<Record<string, unknown>> {
  return {
    consent_request_id: session.consentRequestId,
    grant_scope: session.grantScope,
    grant_access_token_audience: session.grantAudience,
    session: { access_token: session.sessionAccessToken, id_token: session.sessionIdToken },
    remember: session.remember,
    remember_for: session.rememberFor,
    handled_at: isoSeconds(session.handledAt),
    context: session.context,
    consent_request: {
      // The challenge is gone once handled (Hydra sends it empty as well).
      challenge: "",
      consent_request_id: session.consentRequestId,
      requested_scope: session.requestedScope,
      requested_access_token_audience: session.requestedAudience,
      skip: session.skip,
      subject: session.subject,
      oidc_context: session.oidcContext,
      client: await clientView(db, session.clientId),
      request_url: session.requestUrl,
      login_challenge: session.loginChallenge ?? "",
      login_session_id: session.loginSessionId ?? "",
      acr: session.acr ?? "",
      amr: session.amr,
      context: session.context,
    },
  };
}
