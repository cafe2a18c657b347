import { decodeJwt } from "jose";

/** Hydra's oAuth2ConsentRequestOpenIDConnectContext. */
export interface OidcContext {
  acr_values: string[];
  ui_locales: string[];
  display?: string;
  id_token_hint_claims: Record<string, unknown>;
  login_hint?: string;
}

function words(value: unknown): string[] {
  return typeof value === "string" ? value.split(" ").filter((word) => word !== "") : [];
}

/** Built from the authorization request's parameters (oidc-provider checked id_token_hint already). */
export function oidcContextFrom(params: Record<string, unknown>): OidcContext {
  let hintClaims: Record<string, unknown> = {};
  if (typeof params.id_token_hint === "string") {
    try {
      hintClaims = decodeJwt(params.id_token_hint);
    } catch {
      hintClaims = {};
    }
  }
  return {
    acr_values: words(params.acr_values),
    ui_locales: words(params.ui_locales),
    ...(typeof params.display === "string" ? { display: params.display } : {}),
    id_token_hint_claims: hintClaims,
    ...(typeof params.login_hint === "string" ? { login_hint: params.login_hint } : {}),
  };
}
