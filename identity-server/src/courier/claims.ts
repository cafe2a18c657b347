import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { listClaims, requeueClaim } from "../store/courier-messages.ts";
import type { Executor } from "../store/schema.ts";

/**
 * A claim older than this is taken to be left by a worker that stopped without finishing: longer
 * than any delivery takes (the SMS webhook times out after 10 s, SMTP conversations after minutes).
 */
export const claimLeaseMs = 15 * 60_000;

/** This process's courier worker: host and process id (to recognise a dead one), then a nonce. */
export function newWorkerId(): string {
  return `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Whether the worker that claimed a message can no longer be sending it: claimed before workers
 * were recorded, by a process of this host that has exited (a restart after a crash), or so long ago
 * that its lease ran out. A live worker's claim, another process's on this host included, is kept:
 * queueing it again would send the message twice.
 */
function claimIsAbandoned(
  claimedBy: string | null,
  updatedAt: string,
  me: string,
  now: Date,
): boolean {
  if (claimedBy === me) return false;
  if (claimedBy === null) return true;
  if (now.getTime() - new Date(updatedAt).getTime() > claimLeaseMs) return true;
  const [host, pid] = claimedBy.split("/");
  return host === hostname() && pid !== String(process.pid) && processIsGone(Number(pid));
}

/** Queues again the "processing" messages whose worker has gone; returns how many. */
export async function requeueAbandonedClaims(db: Executor, me: string, now: Date): Promise<number> {
  let requeued = 0;
  for (const claim of await listClaims(db)) {
    if (!claimIsAbandoned(claim.claimedBy, claim.updatedAt, me, now)) continue;
    if (await requeueClaim(db, claim, now)) requeued++;
  }
  return requeued;
}
