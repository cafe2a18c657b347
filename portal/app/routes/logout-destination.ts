/**
 * Where the browser lands once signed out, on the portal's own origin: the login page by
 * default; with `?login_challenge=` that application's sign-in again, for another account
 * ("Use another account").
 */
export function afterSignOut(locale: string, query: URLSearchParams): string {
  const challenge = query.get("login_challenge");
  if (!challenge) return `/${locale}/login`;
  return `/${locale}/login?${new URLSearchParams({ login_challenge: challenge }).toString()}`;
}
