/**
 * The OAuth challenge marker's sessionStorage key (oauth2-marker.ts), in a module of its own so
 * the login page can tell, without downloading the marker's code, whether it has anything to do.
 */
export const markerKey = "oauth2_login_challenge_marker";

/**
 * Whether the marker has work on this page: the flow carries a challenge, or this tab holds a
 * marker (to show the "interrupted" alert, or drop a stale "init"). A plain sign-in in a tab
 * that never saw a challenge needs none of it (DESIGN §6 budget).
 */
export function markerNeeded(challenge: boolean): boolean {
  if (challenge) return true;
  try {
    return window.sessionStorage.getItem(markerKey) !== null;
  } catch {
    return false;
  }
}
