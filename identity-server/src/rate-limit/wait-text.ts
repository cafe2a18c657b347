/** How a wait is worded: seconds under a minute, minutes under two hours, hours beyond. */
export interface WaitAmount {
  count: number;
  unit: "second" | "minute" | "hour";
}

/** Rounds up, so the user is never told to come back before the limit has lifted. */
export function waitAmount(retryAfterSeconds: number): WaitAmount {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 60) return { count: seconds, unit: "second" };
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return { count: minutes, unit: "minute" };
  return { count: Math.ceil(minutes / 60), unit: "hour" };
}

/** The English wait the server puts into its message text ("3 minutes", "1 second"). */
export function englishWait(retryAfterSeconds: number): string {
  const { count, unit } = waitAmount(retryAfterSeconds);
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}
