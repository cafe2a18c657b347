/** What the sessions card shows of one session (the identity service's JSON, reduced). */
export interface SessionSummary {
  id: string;
  userAgent: string;
  ipAddress: string | undefined;
  /** When the session began (ISO time), if known. */
  signedInAt: string | undefined;
}

export interface SessionsView {
  current: SessionSummary | undefined;
  others: SessionSummary[];
}

/** The hidden `intent` field of the card's forms: these never reach the settings flow. */
export const intentField = "intent";
export const sessionIdField = "session_id";
export const sessionIntents = {
  revoke: "revoke-session",
  revokeOthers: "revoke-other-sessions",
} as const;

/** The action's answer to a sessions form, shown in the card. */
export type SessionsResult =
  { kind: "revoked" } | { kind: "revoked-others"; count: number } | { kind: "failed" };
