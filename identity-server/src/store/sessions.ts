// The session store, one module per purpose; this file gathers them so callers import one place.
export { saveSession, setSessionExpiry } from "./session-writes.ts";
export {
  findSessionByTokenHash,
  findSessionById,
  listSessionsOfIdentity,
  listAllSessions,
} from "./session-reads.ts";
export {
  revokeSession,
  insertLogoutToken,
  logoutTokenBelongsTo,
  revokeOtherSessions,
  revokeSessionsExcept,
  revokeSessionOf,
  revokeSessionById,
  deleteSessionsOfIdentity,
} from "./session-revocation.ts";
