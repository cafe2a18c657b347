import type { MessageParams, Translator } from "../i18n/translator.ts";

type WaitKey =
  | "wait.seconds.one"
  | "wait.seconds.other"
  | "wait.minutes.one"
  | "wait.minutes.other"
  | "wait.hours.one"
  | "wait.hours.other";

/**
 * The identity service's rate-limit messages (9010007, 9010008) carry `retry_after_seconds`; the
 * portal words the wait itself, as the service does in English: rounded up, seconds under a
 * minute, minutes under two hours, hours beyond ("3 minutes", "3 minutos").
 */
export function waitText(translator: Translator, retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const minutes = Math.ceil(seconds / 60);
  const [unit, count] =
    seconds < 60
      ? (["seconds", seconds] as const)
      : minutes < 120
        ? (["minutes", minutes] as const)
        : (["hours", Math.ceil(minutes / 60)] as const);
  const plural = new Intl.PluralRules(translator.locale).select(count) === "one" ? "one" : "other";
  return translator.t(`wait.${unit}.${plural}` satisfies WaitKey, { count });
}

/** The message's params with `wait` added when it speaks of a wait (`retry_after_seconds`). */
export function withWait(translator: Translator, params: MessageParams | undefined) {
  const seconds = params?.retry_after_seconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return params;
  return { ...params, wait: waitText(translator, seconds) };
}
