import { escapeHtml, page } from "./html.ts";
import type { DemoSession } from "./session-store.ts";
import { englishView, type View, type Words } from "./view.ts";

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function row(label: string, value: string | undefined, testId?: string): string {
  if (value === undefined) return "";
  const attribute = testId ? ` data-testid="${testId}"` : "";
  return `<dt>${label}</dt><dd${attribute}>${escapeHtml(value)}</dd>`;
}

/** The signed-in person from the ID token, with userinfo filling in (and winning on) profile data. */
export function personDetails(session: DemoSession, w: Words = englishView.words): string {
  const { claims, userinfo } = session;
  const email = text(userinfo.email) ?? text(claims.email) ?? "";
  const name = text(userinfo.name) ?? text(claims.name);
  const authTime =
    typeof claims.auth_time === "number"
      ? new Date(claims.auth_time * 1000).toISOString()
      : undefined;
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((m) => typeof m === "string") : [];
  return `<dl aria-label="${escapeHtml(w.yourAccount)}">
${row(w.email, email, "signed-in-email")}
${row(w.name, name)}
${row(w.subject, text(claims.sub), "signed-in-subject")}
${row(w.signedInAt, authTime, "signed-in-auth-time")}
${row(w.acr, text(claims.acr), "signed-in-acr")}
${row(w.amr, amr.length > 0 ? amr.join(", ") : undefined, "signed-in-amr")}
</dl>`;
}

export function signOutForm(token: string, w: Words = englishView.words): string {
  return `<form method="post" action="/auth/logout">
<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">
<button type="submit">${escapeHtml(w.signOut)}</button>
</form>`;
}

export function signInLink(returnTo?: string, w: Words = englishView.words): string {
  const href = returnTo ? `/auth/login?return_to=${encodeURIComponent(returnTo)}` : "/auth/login";
  return `<p><a href="${escapeHtml(href)}">${escapeHtml(w.signIn)}</a></p>`;
}

/** A page for a sign-in or sign-out that went wrong: what happened and a way to start over. */
export function problemPage(
  title: string,
  message: string,
  retryHref: string,
  view: View = englishView,
): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(retryHref)}">${escapeHtml(view.words.tryAgain)}</a></p>`,
    view,
  );
}
