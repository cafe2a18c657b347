/**
 * Where the browser lands once signed out, on the portal's own origin: the login page by
 * default; with `?login_challenge=` that application's sign-in again, for another account
 * ("Use another account"); with `?then=recovery` account recovery (a lost second factor), which
 * the identity service refuses while a session exists.
 */
export function afterSignOut(locale: string, query: URLSearchParams): string {
  if (query.get("then") === "recovery") return `/${locale}/recovery`;
  const challenge = query.get("login_challenge");
  if (!challenge) return `/${locale}/login`;
  return `/${locale}/login?${new URLSearchParams({ login_challenge: challenge }).toString()}`;
}
