import type { Context, Next } from "koa";

// oidc-provider follows OIDC Core and drops `offline_access` unless `prompt` contains `consent`;
// Hydra issues a refresh token for `offline_access` either way. Every request visits the consent
// UI here anyway, so asking oidc-provider for that prompt changes nothing for the user; a marker
// parameter records that we added it, so the admin API still reports the request as it came in.

/** Registered as an extra authorization parameter so it survives into the interaction. */
export const injectedConsentMarker = "hydra_offline_access_prompt";

export function offlineAccessPrompt(authorizationPath: string) {
  return async function addConsentPrompt(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === "GET" && ctx.path === authorizationPath) {
      const params = new URLSearchParams(ctx.querystring);
      params.delete(injectedConsentMarker);
      const scopes = (params.get("scope") ?? "").split(" ");
      const prompts = (params.get("prompt") ?? "").split(" ").filter((p) => p !== "");
      if (
        scopes.includes("offline_access") &&
        !prompts.includes("consent") &&
        !prompts.includes("none")
      ) {
        params.set("prompt", [...prompts, "consent"].join(" "));
        params.set(injectedConsentMarker, "1");
      }
      ctx.querystring = params.toString();
    }
    await next();
  };
}

/** The prompts the client itself asked for. */
export function requestedPrompts(params: Record<string, unknown>): string[] {
  const prompts = typeof params.prompt === "string" ? params.prompt.split(" ") : [];
  const injected = params[injectedConsentMarker] === "1";
  return prompts.filter((prompt) => prompt !== "" && !(injected && prompt === "consent"));
}

/** The authorization URL as the client sent it (Hydra's `request_url`). */
export function originalRequestUrl(
  authorizationUrl: string,
  params: Record<string, unknown>,
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === injectedConsentMarker || value === undefined || value === null) continue;
    if (key === "prompt") {
      const prompts = requestedPrompts(params);
      if (prompts.length > 0) query.set("prompt", prompts.join(" "));
      continue;
    }
    query.set(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return `${authorizationUrl}?${query.toString()}`;
}
