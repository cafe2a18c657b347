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

/** The pages' one stylesheet; the Content-Security-Policy allows exactly it, by its hash. */
export const stylesheet = `
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fff}
a{color:#005ea2}a:focus,button:focus{outline:3px solid #2491ff;outline-offset:2px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}
ul{padding-left:1.25rem}
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Agency product (demo)</title>
<style>${stylesheet}</style>
</head>
<body>
<header><p>Agency product <small>(demo relying party)</small></p></header>
<main>
${body}
</main>
</body>
</html>`;
}
