import en from "../i18n/en.json" with { type: "json" };
import es from "../i18n/es.json" with { type: "json" };
import { detectLocale } from "../i18n/detect-locale.server.ts";
import { isLocale, type Locale } from "../i18n/locales.ts";

/**
 * Seconds a client should wait before trying again (Retry-After). The page does not reload
 * itself: a timed refresh fails WCAG 2.2.1 (axe's meta-refresh rule); it offers a link instead.
 */
const startingRetrySeconds = 3;

const texts: Record<Locale, { title: string; body: string; retry: string; brand: string }> = {
  en: {
    title: en["starting.title"],
    body: en["starting.body"],
    retry: en["starting.retry"],
    brand: en["brand.name"],
  },
  es: {
    title: es["starting.title"],
    body: es["starting.body"],
    retry: es["starting.retry"],
    brand: es["brand.name"],
  },
};

export interface StartingPage {
  status: 503;
  headers: Record<string, string>;
  body: string;
}

/**
 * What a page request gets while the identity service is not up (starting, or gone since): a
 * 503 with a link to try again, in the page's language, instead of the generic error page.
 * Plain HTML with no script, so it works with JavaScript off and under the page's CSP.
 */
export function startingPage(request: Request): StartingPage {
  const url = new URL(request.url);
  const fromPath = url.pathname.split("/")[1];
  const locale = isLocale(fromPath) ? fromPath : detectLocale(request);
  const t = texts[locale];
  // A reload of the address asked for: a form post becomes its page, which posts again when ready.
  const again = escapeHtml(`${url.pathname}${url.search}`);
  const body = `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${t.title} · ${t.brand}`)}</title>
<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; }
main { max-width: 32rem; margin: 0 auto; padding: 3rem 1rem; line-height: 1.5; }
h1 { font-size: 1.5rem; }
a { color: LinkText; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.body)}</p>
<p><a href="${again}">${escapeHtml(t.retry)}</a></p>
</main>
</body>
</html>
`;
  return {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Retry-After": String(startingRetrySeconds),
      "Cache-Control": "no-store",
      "Content-Language": locale,
    },
    body,
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ??
      character,
  );
}
