import { readIdentityResponse } from "@portal/client";
import type { ApiResponse, IdentityResponse } from "@portal/client";
import { redirect, redirectDocument } from "react-router";
import { getConfig } from "../config.server.ts";
import { isRecord } from "../flows/node-guards.ts";
import type { Locale } from "../i18n/locales.ts";
import { originsOf } from "./csp-origins.ts";
import { requestInfoContext } from "./request-context.ts";
import { safeLocation } from "./safe-location.server.ts";
import type { RouterContextProvider } from "react-router";

/** Why an OAuth2 request cannot go on; the /error page words each one. */
export type OAuth2Problem = "expired" | "unavailable" | "sessionMismatch";

export const oauth2ProblemParam = "oauth2";

export function isOAuth2Problem(value: string | null): value is OAuth2Problem {
  return value === "expired" || value === "unavailable" || value === "sessionMismatch";
}

/**
 * One admin call to the OAuth2 service. An unreachable service is an answer too (status 0), so
 * the page can say so instead of failing with a 500.
 */
export async function callOAuth2<T>(
  call: () => Promise<ApiResponse<T>>,
): Promise<IdentityResponse<T>> {
  try {
    return await readIdentityResponse(call);
  } catch (error) {
    console.error("OAuth2 admin call failed", error);
    return { ok: false, status: 0, body: null, setCookies: [] };
  }
}

/**
 * Sends the browser to a URL the OAuth2 service chose (its own endpoints, the client's URIs),
 * read as the browser will read it: never a protocol-relative or script URL.
 */
export function redirectToOAuth2(to: string): Response {
  return redirectDocument(safeLocation(to) ?? "/", 303);
}

/**
 * What a failed admin call means for the browser (hydra-behaviour §1.2, §1.4): 410 = the
 * challenge was used already, so follow its redirect_to (the original authorization request);
 * 404/401 and other 4xx = unknown or expired challenge; anything else = the service failed.
 */
export function oauth2Failure(answer: { status: number; body: unknown }, locale: Locale): Response {
  if (answer.status === 410 && isRecord(answer.body) && typeof answer.body.redirect_to === "string")
    return redirectToOAuth2(answer.body.redirect_to);
  const problem: OAuth2Problem =
    answer.status >= 400 && answer.status < 500 ? "expired" : "unavailable";
  return oauth2ProblemPage(locale, problem);
}

export function oauth2ProblemPage(locale: Locale, problem: OAuth2Problem): Response {
  return redirect(`/${locale}/error?${oauth2ProblemParam}=${problem}`);
}

/**
 * A page rendered for a challenge posts forms whose redirects end at the client (its redirect
 * or post-logout URIs): CSP form-action has to allow those origins on this response.
 */
export function allowClientRedirects(
  context: Readonly<RouterContextProvider>,
  urls: readonly (string | undefined)[] | undefined,
): void {
  const origins = originsOf([getConfig().oauth2PublicUrl, ...(urls ?? [])]);
  context.get(requestInfoContext).allowOrigins?.("form-action", origins);
}

/** The client's logo is shown on the consent page: img-src has to allow its origin. */
export function allowClientLogo(
  context: Readonly<RouterContextProvider>,
  logo: string | undefined,
) {
  context.get(requestInfoContext).allowOrigins?.("img-src", originsOf([logo]));
}

/** An absolute http(s) URL from client metadata, or undefined (never javascript: or data:). */
export function safeHttpUrl(value: string | undefined): string | undefined {
  return value && originsOf([value]).length > 0 ? value : undefined;
}
