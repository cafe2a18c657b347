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
      return "notice.somethingWentWrong";
    default:
      return undefined;
  }
}
