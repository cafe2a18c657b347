import { redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import {
  allowClientRedirects,
  callOAuth2,
  oauth2Failure,
  oauth2ProblemPage,
  redirectToOAuth2,
} from "../http/oauth2-answer.server.ts";
import { oauth2AdminFor } from "../http/oauth2.server.ts";
import type { Locale } from "../i18n/locales.ts";
import { logoutChallengeParam, logoutDecisionName } from "./logout-fields.ts";

interface LogoutArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  locale: Locale;
  url: URL;
}

/** What the sign-out question shows: the client's name, when an application asked. */
export interface LogoutQuestion {
  challenge: string;
  client: string | undefined;
}

/**
 * GET /logout?logout_challenge=… (Hydra's logout UI, hydra-behaviour §1.6): read the request and
 * ask. A client marked skip_logout_consent is signed out without the question. Whether the
 * logout was initiated by the application (rp_initiated) or not, the question is the same.
 */
export async function loadLogoutQuestion(
  args: LogoutArgs,
  challenge: string,
): Promise<Response | LogoutQuestion> {
  const oauth2 = oauth2AdminFor(args.context);
  const answer = await callOAuth2(() =>
    oauth2.getOAuth2LogoutRequestRaw({ logoutChallenge: challenge }),
  );
  if (!answer.ok) return oauth2Failure(answer, args.locale);
  const client = answer.data.client;
  if (client?.skip_logout_consent === true) return acceptLogout(args, challenge);
  // "Yes" ends in redirects to the client's post-logout URI; CSP form-action must allow it.
  allowClientRedirects(args.context, [
    ...(client?.post_logout_redirect_uris ?? []),
    ...(client?.redirect_uris ?? []),
  ]);
  return { challenge, client: client?.client_name || client?.client_id || undefined };
}

/** POST /logout: Yes accepts (Hydra ends the sessions, then returns to the client); No rejects. */
export async function answerLogoutQuestion(args: LogoutArgs, form: FormData): Promise<Response> {
  const posted = form.get(logoutChallengeParam);
  const challenge =
    args.url.searchParams.get(logoutChallengeParam) ?? (typeof posted === "string" ? posted : null);
  if (!challenge) return oauth2ProblemPage(args.locale, "expired");
  if (form.get(logoutDecisionName) === "yes") return acceptLogout(args, challenge);
  const oauth2 = oauth2AdminFor(args.context);
  // Hydra answers a rejected logout with 204 and leaves the next step to the portal.
  const answer = await callOAuth2(() =>
    oauth2.rejectOAuth2LogoutRequestRaw({ logoutChallenge: challenge }),
  );
  if (!answer.ok) return oauth2Failure(answer, args.locale);
  return redirect(`/${args.locale}`);
}

async function acceptLogout(args: LogoutArgs, challenge: string): Promise<Response> {
  const oauth2 = oauth2AdminFor(args.context);
  const answer = await callOAuth2(() =>
    oauth2.acceptOAuth2LogoutRequestRaw({ logoutChallenge: challenge }),
  );
  if (!answer.ok) return oauth2Failure(answer, args.locale);
  return redirectToOAuth2(answer.data.redirect_to);
}
