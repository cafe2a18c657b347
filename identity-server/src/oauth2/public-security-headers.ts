import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { setBaseSecurityHeaders } from "../http/security-headers.ts";
import { autoSubmitScript } from "./provider/browser-pages.ts";

// The OAuth2 public listener renders a few HTML pages itself: the logout auto-submit form, the
// error page (without urls.error) and oidc-provider's form_post answer. None loads anything, so
// the policy allows nothing but their inline scripts, by hash: oidc-provider adds the hash of its
// form_post script to script-src when the response already has one (helpers/script_src_sha.js).
//
// No form-action: the logout form's target redirects on to the client's post-logout URI and the
// form_post form targets the client's redirect URI; browsers check form-action along the whole
// redirect chain, so any list here would block a registered client.

const scriptHash = createHash("sha256").update(autoSubmitScript).digest("base64");

export const oauth2PublicContentSecurityPolicy = [
  "default-src 'none'",
  `script-src 'sha256-${scriptHash}'`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** Set on the raw response before oidc-provider (or the health check) answers. */
export function setOAuth2PublicHeaders(res: ServerResponse): void {
  setBaseSecurityHeaders(res);
  res.setHeader("content-security-policy", oauth2PublicContentSecurityPolicy);
}
