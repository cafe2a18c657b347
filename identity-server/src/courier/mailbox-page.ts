import type { CourierMessage } from "./message.ts";

const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

function messageArticle(message: CourierMessage, index: number): string {
  const headingId = `message-${index}`;
  const code = typeof message.templateData.code === "string" ? message.templateData.code : "";
  const title = message.channel === "sms" ? "Text message" : escapeHtml(message.subject);
  return `<article aria-labelledby="${headingId}">
<h2 id="${headingId}">${title}</h2>
<dl>
<dt>To</dt><dd>${escapeHtml(message.recipient)}</dd>
<dt>Channel</dt><dd>${message.channel === "sms" ? "SMS" : "E-mail"}</dd>
<dt>Status</dt><dd>${escapeHtml(message.status)}</dd>
<dt>Time</dt><dd><time datetime="${message.createdAt.toISOString()}">${escapeHtml(message.createdAt.toUTCString())}</time></dd>
${message.lastError ? `<dt>Last error</dt><dd>${escapeHtml(message.lastError)} (attempt ${message.sendCount})</dd>` : ""}
${code ? `<dt>Code</dt><dd><strong class="code">${escapeHtml(code)}</strong></dd>` : ""}
</dl>
<pre>${escapeHtml(message.body)}</pre>
</article>`;
}

/**
 * The mailbox page: every message, newest first, readable without JavaScript. Everything that
 * came from users or templates is escaped.
 */
export function mailboxPage(messages: CourierMessage[], recipient: string): string {
  const list =
    messages.length === 0
      ? "<p>No messages yet.</p>"
      : messages.map((message, index) => messageArticle(message, index)).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailbox — sign-in portal</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;line-height:1.5;color:#1b1b1b;background:#fff}
article{border:1px solid #8a8a8a;border-radius:.5rem;padding:0 1rem;margin:1rem 0}
h2{font-size:1.125rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0}
pre{white-space:pre-wrap;background:#f0f0f0;padding:.75rem;border-radius:.25rem}
.code{font-size:1.5rem;letter-spacing:.2em;font-family:ui-monospace,monospace}
label{font-weight:600;margin-right:.5rem}
input,button{font:inherit;padding:.25rem .5rem}
@media (prefers-color-scheme:dark){body{color:#f0f0f0;background:#1b1b1b}pre{background:#2d2d2d}}
</style>
</head>
<body>
<main>
<h1>Mailbox</h1>
<p>Every e-mail and text message the identity service sent, newest first.</p>
<form method="get" action="/">
<label for="to">Recipient</label>
<input id="to" name="to" type="text" value="${escapeHtml(recipient)}" autocomplete="off">
<button type="submit">Filter</button>
</form>
<section aria-label="Messages">
${list}
</section>
</main>
</body>
</html>
`;
}

/** The machine-readable list, for tests and scripts that need the code. */
export function mailboxJson(messages: CourierMessage[]): Record<string, unknown>[] {
  return messages.map((message) => ({
    id: message.id,
    channel: message.channel,
    recipient: message.recipient,
    subject: message.subject,
    body: message.body,
    code: typeof message.templateData.code === "string" ? message.templateData.code : null,
    template_type: message.templateType,
    status: message.status,
    send_count: message.sendCount,
    last_error: message.lastError ?? null,
    created_at: message.createdAt.toISOString(),
  }));
}
