import { HerodotError, unauthorized } from "../http/errors.ts";

/** Kratos' ErrNoActiveSessionFound (`session_inactive`), optionally with another reason. */
export function noActiveSession(
  reason = "No active session was found in this request.",
): HerodotError {
  return new HerodotError(401, {
    id: "session_inactive",
    message: "request does not have a valid authentication session",
    reason,
  });
}

/** Settings fetch/submit without a session: a 401 without an error id (settings' OnUnauthenticated). */
export function sessionCredentialsMissing(): HerodotError {
  return unauthorized("A valid Ory Session Cookie or Ory Session Token is missing.");
}

/** Settings changes that need a fresh sign-in (Kratos' FlowNeedsReAuth). */
export function sessionRefreshRequired(redirectBrowserTo: string): HerodotError {
  return new HerodotError(403, {
    id: "session_refresh_required",
    reason:
      "The login session is too old and thus not allowed to update these fields. Please re-authenticate.",
    extra: { redirect_browser_to: redirectBrowserTo },
  });
}
