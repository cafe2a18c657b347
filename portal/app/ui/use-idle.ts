import { useEffect, useState } from "react";

/** How long hydration may keep the main thread busy before idle-time work runs anyway. */
export const idleTimeoutMs = 2_000;

/**
 * False on the server, during hydration and until the browser is first idle after it; then true.
 * For work nobody waiting to type needs (the session check, the fingerprint, the idle timer): it
 * then never competes with hydration or the first keystrokes for the main thread.
 */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: idleTimeoutMs });
      return () => window.cancelIdleCallback(id);
    }
    // Safari has no requestIdleCallback: a macrotask after the hydration commit.
    const id = window.setTimeout(() => setIdle(true), 50);
    return () => window.clearTimeout(id);
  }, []);
  return idle;
}
