import { englishView, type View } from "./view.ts";

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => escapes[ch] ?? ch);
}

/**
 * The pages' one stylesheet; the Content-Security-Policy allows exactly it, by its hash. Colours
 * are variables: light by default, dark for `html.dark` (the portal's theme cookie) and, with no
 * cookie, for a system that prefers dark. Motion: none to reduce.
 */
export const stylesheet = `
:root{--bg:#f1f5f9;--panel:#fff;--text:#0f172a;--muted:#334155;--line:#cbd5e1;--brand:#0f4c81;--brand-text:#fff;--link:#0b5394;--focus:#1d4ed8;--ok-bg:#dcfce7;--ok-text:#14532d;color-scheme:light}
html.dark{--bg:#020617;--panel:#0f172a;--text:#f1f5f9;--muted:#cbd5e1;--line:#334155;--brand:#93c5fd;--brand-text:#020617;--link:#93c5fd;--focus:#93c5fd;--ok-bg:#14532d;--ok-text:#dcfce7;color-scheme:dark}
@media (prefers-color-scheme:dark){html:not(.light){--bg:#020617;--panel:#0f172a;--text:#f1f5f9;--muted:#cbd5e1;--line:#334155;--brand:#93c5fd;--brand-text:#020617;--link:#93c5fd;--focus:#93c5fd;--ok-bg:#14532d;--ok-text:#dcfce7;color-scheme:dark}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;font:16px/1.5 system-ui,sans-serif;color:var(--text);background:var(--bg)}
a{color:var(--link);text-underline-offset:3px}
a:focus-visible,button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.bar{background:var(--panel);border-bottom:1px solid var(--line)}
.bar div{max-width:56rem;margin:0 auto;padding:.75rem 1rem;display:flex;align-items:center;gap:.75rem}
.logo{display:inline-flex;width:2rem;height:2rem;border-radius:.5rem;background:var(--brand);color:var(--brand-text);align-items:center;justify-content:center;font-weight:700}
.brand{font-weight:600}
main{flex:1;width:100%;max-width:40rem;margin:2rem auto;padding:0 1rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0 / .06)}
h1{font-size:1.5rem;margin:0 0 .5rem}
.lead{color:var(--muted);margin-top:0}
[role=status]{background:var(--ok-bg);color:var(--ok-text);border-radius:.5rem;padding:.5rem .75rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0;overflow-wrap:anywhere}
dt{font-weight:600}dd{margin:0}
ul{padding-left:1.25rem}li{margin:.25rem 0}
main a[href^="/auth/login"],button{display:inline-flex;align-items:center;min-height:2.75rem;padding:.5rem 1.25rem;border-radius:.5rem;font:inherit;font-weight:600;cursor:pointer}
main a[href^="/auth/login"]{background:var(--brand);color:var(--brand-text);text-decoration:none}
button{background:transparent;color:var(--text);border:1px solid var(--muted)}
footer{border-top:1px solid var(--line);background:var(--panel);font-size:.875rem}
footer nav{max-width:56rem;margin:0 auto;padding:.75rem 1rem;display:flex;gap:1rem;flex-wrap:wrap}
footer a{display:inline-flex;align-items:center;min-height:1.5rem}
footer a[aria-current]{font-weight:700;text-decoration:none;color:var(--text)}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
`;

export function page(title: string, body: string, view: View = englishView): string {
  const { words: w, lang, theme } = view;
  const language = (code: "en" | "es", name: string) =>
    `<a href="?lang=${code}" hreflang="${code}" lang="${code}"${code === lang ? ' aria-current="true"' : ""}>${name}</a>`;
  return `<!doctype html>
<html lang="${lang}"${theme ? ` class="${theme}"` : ""}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(w.brand)}</title>
<style>${stylesheet}</style>
</head>
<body>
<header class="bar"><div><span class="logo" aria-hidden="true">A</span><p class="brand">${escapeHtml(w.brand)}</p></div></header>
<main>
<div class="card">
${body}
</div>
</main>
<footer><nav aria-label="${escapeHtml(w.language)}">${language("en", "English")}${language("es", "Español")}</nav></footer>
</body>
</html>`;
}
