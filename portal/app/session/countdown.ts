import type { Translator } from "../i18n/translator.ts";

/** Screen readers hear the countdown at most this often (and at the last minute, a multiple). */
const announceEverySeconds = 30;

/** Whole seconds left, rounded up: 299,001 ms still shows 05:00. */
export function secondsLeft(remainingMs: number): number {
  return Math.max(0, Math.ceil(remainingMs / 1000));
}

/** The visible countdown, mm:ss (spec §2). */
export function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * What the polite live region says next: the time when the prompt opens, then each time the
 * countdown crosses a 30-second mark (4:30, 4:00 … 1:00 — the last minute — and 0:30), rounded
 * to that mark even if a tick came late. `undefined` keeps the current announcement.
 */
export function nextAnnouncement(
  announced: number | undefined,
  seconds: number,
): number | undefined {
  if (announced === undefined) return seconds;
  const mark = Math.ceil(seconds / announceEverySeconds) * announceEverySeconds;
  return mark < announced && seconds > 0 ? mark : undefined;
}

/** "4 minutes and 30 seconds": mm:ss is read badly by screen readers. */
export function spokenDuration(seconds: number, t: Translator["t"]): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const minutePart =
    minutes === 1
      ? t("session.duration.minute")
      : t("session.duration.minutes", { count: minutes });
  const secondPart =
    rest === 1 ? t("session.duration.second") : t("session.duration.seconds", { count: rest });
  if (minutes === 0) return secondPart;
  if (rest === 0) return minutePart;
  return t("session.duration.both", { minutes: minutePart, seconds: secondPart });
}
