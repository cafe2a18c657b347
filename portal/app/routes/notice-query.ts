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

/** Forms reset by spec §8 (forbidden return_to, expired flow, CSRF): their toast stays 3 s. */
const resetNotices: readonly MessageKey[] = [
  "notice.csrf",
  "notice.expired",
  "notice.returnToForbidden",
];

/** Spec §9: toasts stay 2 s, 3 s for a reset form, 5 s for the request to sign in again. */
export function noticeDuration(key: MessageKey): number {
  if (key === "notice.refreshRequired") return 5000;
  return resetNotices.includes(key) ? 3000 : 2000;
}
