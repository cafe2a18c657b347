import type { DatabaseSync } from "node:sqlite";
import type { WriteCounts } from "./database.ts";

/** How often the writes are looked at; a checkpoint follows a whole interval without any. */
const quietIntervalMs = 1000;

/**
 * Checkpoints the WAL once writes pause: when a whole second passed without a write on this
 * connection and something was written since the last checkpoint. SQLite's automatic checkpoint
 * (raised to `walAutocheckpointPages`) runs inside whichever commit fills the WAL, on the event
 * loop in the middle of the traffic; this one runs when sign-ins and other writes have stopped,
 * so the automatic one is rarely reached. PASSIVE: it never waits for readers or writers (another
 * process's), copying what it can. Returns the function that stops it (before the file closes).
 */
export function checkpointWhenQuiet(file: DatabaseSync, counts: WriteCounts): () => void {
  const writes = counts.watch(new Set());
  let lastSeen = writes();
  let checkpointedAt = lastSeen;
  const timer = setInterval(() => {
    const now = writes();
    // An open transaction (awaiting between statements) cannot checkpoint on its connection.
    if (now === lastSeen && now !== checkpointedAt && !file.isTransaction) {
      try {
        file.exec("PRAGMA wal_checkpoint(PASSIVE)");
        checkpointedAt = now;
      } catch {
        // Busy or locked by another process: the next quiet second tries again.
      }
    }
    lastSeen = now;
  }, quietIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
