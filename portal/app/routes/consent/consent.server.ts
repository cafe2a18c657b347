import { readIdentityResponse } from "@portal/client";
import type { RouterContextProvider } from "react-router";
import { identityFor } from "../../http/identity.server.ts";
import {
  allowClientLogo,
  allowClientRedirects,
  callOAuth2,
  oauth2Failure,
  oauth2ProblemPage,
  redirectToOAuth2,
  safeHttpUrl,
} from "../../http/oauth2-answer.server.ts";
import { oauth2AdminFor } from "../../http/oauth2.server.ts";
import type { Locale } from "../../i18n/locales.ts";
import { challengeParam, decisionName, rememberName } from "./fields.ts";
import { idTokenClaims } from "./id-token-claims.server.ts";
import type { ClaimSource } from "./id-token-claims.server.ts";

interface ConsentArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  locale: Locale;
  url: URL;
}

/**
 * A remembered decision lasts until the person revokes it (Hydra: remember_for 0 = forever);
 * Hydra then marks later requests of this client for the same or fewer scopes skip=true.
 */
const rememberForSeconds = 0;

/** What the consent screen shows: nothing the browser could use to change the grant. */
export interface ConsentView {
  challenge: string;
  client: { name: string; logo?: string; policy?: string; tos?: string };
  scopes: string[];
}

/** The parts of Hydra's OAuth2ConsentRequest an acceptance is built from. */
interface ConsentRequest {
  subject?: string;
  requested_scope?: string[];
  requested_access_token_audience?: string[];
}

function readConsentRequest(context: ConsentArgs["context"], challenge: string) {
  const oauth2 = oauth2AdminFor(context);
  return callOAuth2(() => oauth2.getOAuth2ConsentRequestRaw({ consentChallenge: challenge }));
}

/**
 * GET /consent?consent_challenge=…: a request Hydra may skip (a remembered consent) or whose
 * client is first-party (skip_consent) is accepted at once with every requested scope;
 * otherwise the screen asks.
 */
export async function loadConsent(args: ConsentArgs): Promise<Response | ConsentView> {
  const challenge = args.url.searchParams.get(challengeParam);
  if (!challenge) return oauth2ProblemPage(args.locale, "expired");
  const answer = await readConsentRequest(args.context, challenge);
  if (!answer.ok) return oauth2Failure(answer, args.locale);
  const consent = answer.data;
  if (consent.skip === true || consent.client?.skip_consent === true) {
    // Accepting a skipped request as remembered keeps the earlier decision in force.
    return accept(args, challenge, consent, consent.skip === true);
  }
  const client = consent.client;
  const logo = safeHttpUrl(client?.logo_uri);
  allowClientRedirects(args.context, client?.redirect_uris);
  allowClientLogo(args.context, logo);
  return {
    challenge,
    client: {
      name: clientName(client),
      logo,
      policy: safeHttpUrl(client?.policy_uri),
      tos: safeHttpUrl(client?.tos_uri),
    },
    scopes: consent.requested_scope ?? [],
  };
}

/** POST /consent: Allow accepts every requested scope (optionally remembered); Deny rejects. */
export async function submitConsent(args: ConsentArgs): Promise<Response> {
  const form = await args.request.formData();
  const posted = form.get(challengeParam);
  const challenge =
    args.url.searchParams.get(challengeParam) ?? (typeof posted === "string" ? posted : null);
  if (!challenge) return oauth2ProblemPage(args.locale, "expired");
  // The grant comes from the OAuth2 service's record of the request, never from the form.
  const answer = await readConsentRequest(args.context, challenge);
  if (!answer.ok) return oauth2Failure(answer, args.locale);
  if (form.get(decisionName) === "allow") {
    return accept(args, challenge, answer.data, form.get(rememberName) === "true");
  }
  const oauth2 = oauth2AdminFor(args.context);
  const rejected = await callOAuth2(() =>
    oauth2.rejectOAuth2ConsentRequestRaw({
      consentChallenge: challenge,
      rejectOAuth2Request: {
        error: "access_denied",
        error_description: "The resource owner denied the request",
        status_code: 403,
      },
    }),
  );
  if (!rejected.ok) return oauth2Failure(rejected, args.locale);
  return redirectToOAuth2(rejected.data.redirect_to);
}

async function accept(
  args: ConsentArgs,
  challenge: string,
  consent: ConsentRequest,
  remember: boolean,
): Promise<Response> {
  const identity = await signedInIdentity(args);
  // The ID-token claims describe the person the request is for, and nobody else.
  if (!identity || identity.id !== consent.subject) {
    return oauth2ProblemPage(args.locale, "sessionMismatch");
  }
  const grantScope = consent.requested_scope ?? [];
  const oauth2 = oauth2AdminFor(args.context);
  const accepted = await callOAuth2(() =>
    oauth2.acceptOAuth2ConsentRequestRaw({
      consentChallenge: challenge,
      acceptOAuth2ConsentRequest: {
        grant_scope: grantScope,
        grant_access_token_audience: consent.requested_access_token_audience ?? [],
        remember,
        remember_for: rememberForSeconds,
        session: { id_token: idTokenClaims(grantScope, identity) },
      },
    }),
  );
  if (!accepted.ok) return oauth2Failure(accepted, args.locale);
  return redirectToOAuth2(accepted.data.redirect_to);
}

/** The identity of the browser's session (/sessions/whoami with its cookies), if any. */
async function signedInIdentity(
  args: ConsentArgs,
): Promise<(ClaimSource & { id: string }) | undefined> {
  const { frontend } = identityFor(args.request, args.context);
  const answer = await readIdentityResponse(() => frontend.toSessionRaw({})).catch(() => undefined);
  const identity = answer?.ok ? answer.data.identity : undefined;
  if (!identity) return undefined;
  return {
    id: identity.id,
    traits: identity.traits as unknown,
    verifiable_addresses: identity.verifiable_addresses,
  };
}

function clientName(client: { client_name?: string; client_id?: string } | undefined) {
  return client?.client_name || client?.client_id || "";
}
