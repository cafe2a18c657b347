/** Timing of the session overlays and the fingerprint, from the portal's configuration. */
export interface SessionSettings {
  /** Inactivity after which a signed-in user is signed out (spec §9: 1 hour by default). */
  idleTimeoutMs: number;
  /** How long before that the prompt with the countdown opens (spec §9: 5 minutes). */
  promptBeforeIdleMs: number;
  /** Age after which a click on a button or link recomputes the fingerprint (spec §9: 15 min). */
  fingerprintRevalidateMs: number;
}
