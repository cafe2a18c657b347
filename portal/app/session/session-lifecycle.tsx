import { Suspense, lazy, useEffect, useState, useSyncExternalStore } from "react";
import type { ComponentType } from "react";
import { useLocation } from "react-router";
import type { IdleTimeoutProps } from "./idle-timeout.tsx";
import type { SessionSettings } from "./session-settings.ts";

/** The identity service's session check, through the portal's proxy (no SDK in the page). */
export const whoamiUrl = "/api/kratos/sessions/whoami";

/**
 * Both parts load on demand, apart from the page's own scripts: the fingerprint once the page
 * runs scripts, the idle timer (react-idle-timer and the overlays) only once a session exists,
 * so a signed-out visitor never downloads it. A failed download leaves the page as it is.
 */
const FingerprintAgent = lazy<ComponentType<{ revalidateMs: number }>>(() =>
  import("./fingerprint-agent.tsx").catch(loadFailed),
);
const IdleTimeout = lazy<ComponentType<IdleTimeoutProps>>(() =>
  import("./idle-timeout.tsx").catch(loadFailed),
);

function loadFailed(error: unknown) {
  console.warn(error);
  return { default: () => null };
}

/** Spec §7: whether a session exists; a failed check counts as none. */
export async function hasSession(signal?: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(whoamiUrl, { headers: { accept: "application/json" }, signal });
    return response.ok;
  } catch {
    return false;
  }
}

const noSubscription = () => () => {};

/**
 * Session overlays (spec §2) and the device fingerprint: the session is checked on every path
 * change; while one exists the idle timeout runs. Once the timeout has ended the session, its
 * overlay stays until the user leaves, whatever later checks say.
 */
export function SessionLifecycle(props: { settings: SessionSettings }) {
  const { settings } = props;
  const { pathname } = useLocation();
  const [signedIn, setSignedIn] = useState(false);
  const [ended, setEnded] = useState(false);
  // Nothing of this renders on the server.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  useEffect(() => {
    const controller = new AbortController();
    void hasSession(controller.signal).then((active) => {
      if (!controller.signal.aborted) setSignedIn(active);
    });
    return () => controller.abort();
  }, [pathname]);

  if (!hydrated) return null;
  return (
    <>
      <Suspense fallback={null}>
        <FingerprintAgent revalidateMs={settings.fingerprintRevalidateMs} />
      </Suspense>
      {(signedIn || ended) && (
        <Suspense fallback={null}>
          <IdleTimeout settings={settings} onEnded={() => setEnded(true)} />
        </Suspense>
      )}
    </>
  );
}
