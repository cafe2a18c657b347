import type Provider from "oidc-provider";
import type { OAuth2Config } from "../oauth2-config.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

/** What the login, consent and logout request handlers need from the running service. */
export interface ChallengeDeps {
  db: OAuth2Db;
  now: () => Date;
  config: OAuth2Config;
  /** The issuer URL without a trailing slash. */
  issuer: string;
  /** The current provider (it is rebuilt when clients bring new scopes). */
  provider(): Provider;
}

/** The authorization endpoint on the public listener. */
export function authorizationUrl(deps: Pick<ChallengeDeps, "issuer">): string {
  return `${deps.issuer}/oauth2/auth`;
}
