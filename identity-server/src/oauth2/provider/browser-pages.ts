import type { Context } from "koa";

// The few pages the public listener renders itself. oidc-provider's defaults load web fonts and
// talk about "sign-in"; these are plain, dependency-free and say what happened.

export function htmlEscape(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${htmlEscape(title)}</title></head>
<body>
${body}
</body>
</html>`;
}

/**
 * An error the browser sees (Hydra sends it to urls.error with error and error_description).
 * Without a configured error URL a plain page shows it.
 */
export function sendBrowserError(
  ctx: Context,
  errorUrl: string | undefined,
  error: string,
  description: string,
  status = 400,
): void {
  if (errorUrl) {
    const url = new URL(errorUrl);
    url.searchParams.set("error", error);
    url.searchParams.set("error_description", description);
    ctx.status = 303;
    ctx.redirect(url.href);
    return;
  }
  ctx.status = status;
  ctx.type = "html";
  ctx.body = page(
    "Something went wrong",
    `<h1>Something went wrong</h1>\n<p><code>${htmlEscape(error)}</code></p>\n<p>${htmlEscape(description)}</p>`,
  );
}

/**
 * The auto-submit form's only script. The public listener's Content-Security-Policy allows exactly
 * this script by its hash (public-security-headers.ts), so no other inline script may run.
 */
export const autoSubmitScript = "document.forms[0].submit()";

/**
 * A form that posts itself (with a button for browsers without JavaScript). Used to finish a
 * logout: oidc-provider ends the session only on a POST that carries the session's xsrf secret.
 */
export function sendAutoSubmitForm(
  ctx: Context,
  action: string,
  fields: Record<string, string>,
): void {
  const inputs = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${htmlEscape(name)}" value="${htmlEscape(value)}">`,
    )
    .join("\n");
  ctx.status = 200;
  ctx.type = "html";
  ctx.set("Cache-Control", "no-store");
  ctx.body = page(
    "Signing out",
    `<form method="post" action="${htmlEscape(action)}">
${inputs}
<noscript><button type="submit">Continue</button></noscript>
</form>
<script>${autoSubmitScript}</script>`,
  );
}
