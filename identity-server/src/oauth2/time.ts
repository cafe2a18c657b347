/** Hydra rounds timestamps to whole seconds (`time.Now().UTC().Round(time.Second)`). */
export function isoSeconds(date: Date): string {
  return new Date(Math.round(date.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** Seconds since the epoch, as JWTs and oidc-provider count time. */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}
