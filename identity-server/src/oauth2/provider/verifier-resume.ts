import type { Context, Next } from "koa";
import type Provider from "oidc-provider";
import { spendVerifier } from "../challenges/challenge-verifiers.ts";
import type { ChallengeKind } from "../challenges/interactions.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { sendBrowserError } from "./browser-pages.ts";
import { csrfCookieName, csrfCookieProblem, requestForbiddenDescription } from "./csrf-cookies.ts";

// Hydra's way back from the login and consent UIs: `/oauth2/auth?…&login_verifier=` (or
// `consent_verifier=`). oidc-provider's own way back, `/oauth2/auth/<challenge>` with a resume
// cookie, would let the browser that started a sign-in finish it with a challenge anyone holding
// the challenge can guess the URL of. So that way is closed (the resume cookie is never read from a
// browser), and a request with a verifier is resumed here only after Hydra's checks:
// 1. the verifier is known, of this kind, unexpired and unused (it is spent now, whatever follows);
// 2. the browser carries the CSRF cookie it was given when it called /oauth2/auth.
// A failed check 2 ends the request with `request_forbidden`, sent to the client like any other
// authorization error; the answered login or consent is never applied.

export const resumeCookieName = "oauth2_interaction_resume";

/** fosite's ErrAccessDenied description; Hydra adds the hint about the verifier. */
const accessDenied = "The resource owner or authorization server denied the request.";

export interface VerifierResumeDeps {
  db: OAuth2Db;
  now: () => Date;
  errorUrl: string | undefined;
  /** The provider this middleware is mounted on. */
  provider: Provider;
  authorizationPath: string;
}

/** Hydra reads login_verifier first, then consent_verifier (trimmed, empty means absent). */
function presentedVerifier(
  ctx: Context,
  authorizationPath: string,
): { kind: ChallengeKind; verifier: string } | undefined {
  if (ctx.method !== "GET" || ctx.path !== authorizationPath) return undefined;
  const query = new URLSearchParams(ctx.querystring);
  const login = query.get("login_verifier")?.trim();
  if (login) return { kind: "login", verifier: login };
  const consent = query.get("consent_verifier")?.trim();
  if (consent) return { kind: "consent", verifier: consent };
  return undefined;
}

/** Removes resume cookies the browser sent: only a verified verifier may resume an interaction. */
function dropResumeCookies(ctx: Context): void {
  const header = ctx.request.headers.cookie;
  if (!header) return;
  const kept = header.split(";").filter((pair) => {
    const name = pair.slice(0, pair.indexOf("=")).trim();
    return name !== resumeCookieName && name !== `${resumeCookieName}.sig`;
  });
  if (kept.length > 0) ctx.request.headers.cookie = kept.join(";");
  else delete ctx.request.headers.cookie;
}

/** Hands the request to oidc-provider's resume route with the resume cookie it expects. */
function resumeInternally(ctx: Context, uid: string, authorizationPath: string): void {
  // koa's Cookies holds the app's keys as a Keygrip (not in its type declarations).
  const keys = (ctx.cookies as unknown as { keys?: { sign(data: string): string } }).keys;
  if (!keys) throw new Error("the provider has no cookie keys to resume an interaction with");
  const pair = `${resumeCookieName}=${uid}`;
  const resume = `${pair}; ${resumeCookieName}.sig=${keys.sign(pair)}`;
  const others = ctx.request.headers.cookie;
  ctx.request.headers.cookie = others ? `${resume}; ${others}` : resume;
  ctx.querystring = "";
  ctx.path = `${authorizationPath}/${uid}`;
}

export function verifierResume(deps: VerifierResumeDeps) {
  return async function resumeWithVerifier(ctx: Context, next: Next): Promise<void> {
    dropResumeCookies(ctx);
    const presented = presentedVerifier(ctx, deps.authorizationPath);
    if (!presented) {
      await next();
      return;
    }
    const { kind, verifier } = presented;
    const spent = await spendVerifier(deps.db, kind, verifier, deps.now());
    const interaction = spent && (await deps.provider.Interaction.find(spent.challenge));
    if (!spent || !interaction) {
      sendBrowserError(
        ctx,
        deps.errorUrl,
        "access_denied",
        `${accessDenied} The ${kind} verifier has already been used, has not been granted, or is invalid.`,
        403,
      );
      return;
    }
    const result = interaction.result as { error?: string } | undefined;
    // Hydra hands a rejected request's error to the client before it looks at the cookie.
    if (!result?.error) {
      const problem = csrfCookieProblem(ctx, csrfCookieName(kind, spent.clientId), spent.csrfHash);
      if (problem) {
        interaction.result = {
          error: "request_forbidden",
          error_description: requestForbiddenDescription(problem),
        };
      }
    }
    if ((interaction.result as { error?: string } | undefined)?.error) {
      // An error reaches the client in whichever browser brought the verifier; without this,
      // oidc-provider's check of the originating session would show its own error page instead.
      interaction.session = undefined;
      await interaction.persist();
    }
    resumeInternally(ctx, interaction.uid, deps.authorizationPath);
    await next();
  };
}
