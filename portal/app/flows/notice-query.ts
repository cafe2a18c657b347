import type { MessageKey } from "../i18n/translator.ts";

/** The catalogue message for a restart reason carried in ?notice= (set by the dispatcher). */
export function noticeFromQuery(value: string | null): MessageKey | undefined {
  switch (value) {
    case "csrf":
      return "notice.csrf";
    case "expired":
    case "not-found":
      return "notice.expired";
    case "return-to-forbidden":
      return "notice.returnToForbidden";
    case "identity-mismatch":
    case "failed":
      return "notice.somethingWentWrong";
    case "refresh":
      return "notice.refreshRequired";
    default:
      return undefined;
  }
}

/**
 * Spec §9: toasts stay 2 s, 3 s for a form reset by spec §8 (forbidden return_to, expired flow,
 * CSRF), 5 s for the request to sign in again. The notices are the restart reasons above.
 */
export function noticeDuration(key: MessageKey): number {
  if (key === "notice.refreshRequired") return 5000;
  return key === "notice.somethingWentWrong" ? 2000 : 3000;
}

/**
 * Each notice's status, so its toast (and its no-JavaScript alert) has that status's colour on
 * every screen: a request to sign in again informs, a restarted form warns, a refusal or a
 * failure is an error.
 */
export function noticeKind(key: MessageKey): "info" | "warning" | "error" {
  switch (key) {
    case "notice.refreshRequired":
      return "info";
    case "notice.expired":
    case "notice.csrf":
      return "warning";
    default:
      return "error";
  }
}
