import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { bindChallenge, newSecret } from "../challenges/challenge-verifiers.ts";
import type { OAuth2Config } from "../oauth2-config.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { addMs } from "../time.ts";
import { csrfCookieName, setCsrfCookie } from "./csrf-cookies.ts";

type InteractionUrl = NonNullable<NonNullable<Configuration["interactions"]>["url"]>;

export interface ChallengeUiDeps {
  db: OAuth2Db;
  now: () => Date;
  config: OAuth2Config;
  /** Where verifiers come back to (the CSRF cookie's path). */
  authorizationPath: string;
}

/**
 * oidc-provider's `interactions.url`, called once per new interaction (= challenge): sends the
 * browser to the login or consent UI and, as Hydra does at that moment, gives that browser the
 * challenge's CSRF cookie and records the value's hash with the challenge.
 */
export function challengeUiUrl(deps: ChallengeUiDeps): InteractionUrl {
  return async (ctx: KoaContextWithOIDC, interaction) => {
    const kind = interaction.prompt.name === "login" ? "login" : "consent";
    const clientId = String(interaction.params.client_id);
    const lifespanMs = deps.config.lifespans.loginConsentRequestMs;
    const csrf = newSecret();
    await bindChallenge(deps.db, {
      challenge: interaction.uid,
      kind,
      clientId,
      csrf,
      expiresAt: addMs(deps.now(), lifespanMs),
    });
    setCsrfCookie(ctx, csrfCookieName(kind, clientId), csrf, deps.authorizationPath, lifespanMs);
    const url = new URL(kind === "login" ? deps.config.loginUrl : deps.config.consentUrl);
    url.searchParams.set(`${kind}_challenge`, interaction.uid);
    return url.href;
  };
}
