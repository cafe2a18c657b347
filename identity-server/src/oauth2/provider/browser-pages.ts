import type { Context } from "koa";

// The few pages the public listener renders itself. oidc-provider's defaults load web fonts and
// talk about "sign-in"; these are plain, dependency-free and say what happened.

function htmlEscape(value: string): string {
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
