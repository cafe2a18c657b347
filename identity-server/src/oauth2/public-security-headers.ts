import type { ServerResponse } from "node:http";
import type { Context, Next } from "koa";
import { setBaseSecurityHeaders } from "../http/security-headers.ts";

// The OAuth2 public listener renders two HTML pages itself: the error page (without urls.error)
// and oidc-provider's form_post answer. None loads anything, so the policy allows no script but
// form_post's own inline one, by hash: oidc-provider adds that hash to script-src when the response
// already has the directive (helpers/script_src_sha.js), and 'none' is then dropped.
//
// No form-action: the form_post form targets the client's redirect URI; browsers check form-action
// along the whole redirect chain, so any list here would block a registered client.

const oauth2PublicContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** Set on the raw response before oidc-provider (or the health check) answers. */
export function setOAuth2PublicHeaders(res: ServerResponse): void {
  setBaseSecurityHeaders(res);
  res.setHeader("content-security-policy", oauth2PublicContentSecurityPolicy);
}

/** After oidc-provider added a script's hash, script-src lists only hashes (no stray 'none'). */
export async function scriptSrcHashesOnly(ctx: Context, next: Next): Promise<void> {
  await next();
  const csp = ctx.response.get("content-security-policy");
  if (csp.includes("script-src 'none' 'sha256-")) {
    ctx.set("content-security-policy", csp.replace("script-src 'none' ", "script-src "));
  }
}
