import { useEffect, useSyncExternalStore } from "react";
import { computeFingerprint } from "./fingerprint.ts";

/**
 * The cookie the portal's server and its /api/kratos proxy turn into the x-session-entropy
 * header (spec §7). Scripts write it, so it cannot be HttpOnly; no-JS requests go without it.
 */
export const entropyCookieName = "x-session-entropy";

let computing = false;
let startedAt = Number.NEGATIVE_INFINITY;
const listeners = new Set<() => void>();

function setComputing(next: boolean): void {
  computing = next;
  for (const listener of listeners) listener();
}

/** Computes the fingerprint and stores it in the cookie; a failure is logged, never thrown. */
async function refreshFingerprint(): Promise<void> {
  if (computing) return;
  startedAt = Date.now();
  setComputing(true);
  try {
    const value = await computeFingerprint();
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${entropyCookieName}=${value}; Path=/; SameSite=Lax${secure}`;
  } catch (error) {
    // Spec §8: the requests simply go without the header.
    console.warn(error);
  } finally {
    setComputing(false);
  }
}

/** Spec §4: a click on a button or link recomputes the fingerprint once it is this old. */
function isStale(now: number, revalidateMs: number): boolean {
  return now - startedAt >= revalidateMs;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Computes the fingerprint once the page runs scripts, and again on the first click on a button
 * or link after `revalidateMs`. Returns whether a computation is under way.
 */
export function useFingerprint(revalidateMs: number): boolean {
  useEffect(() => {
    void refreshFingerprint();
    const onClick = (event: MouseEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || !target.closest("a, button, [type=submit]")) return;
      if (isStale(Date.now(), revalidateMs)) void refreshFingerprint();
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [revalidateMs]);
  return useSyncExternalStore(
    subscribe,
    () => computing,
    () => false,
  );
}
