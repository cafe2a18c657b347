import { Suspense, lazy, useEffect, useState, useSyncExternalStore } from "react";
import type { ComponentType } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import FingerprintAgent from "./fingerprint-agent.tsx";
import type { IdleTimeoutProps } from "./idle-timeout.tsx";
import type { SessionSettings } from "./session-settings.ts";

/** The identity service's session check, through the portal's proxy (no SDK in the page). */
export const whoamiUrl = "/api/kratos/sessions/whoami";

/**
 * This module loads after hydration, apart from the page's own scripts, and the fingerprint
 * agent comes with it: every page computes the fingerprint once it runs scripts, so a chunk of
 * its own would only add a request and gzip overhead (DESIGN §6 budget). The idle timer
 * (react-idle-timer and the overlays) loads only once a session exists, so a signed-out
 * visitor never downloads it; a failed download leaves the page as it is.
 */
const IdleTimeout = lazy<ComponentType<IdleTimeoutProps>>(() =>
  import("./idle-timeout.tsx").catch(loadFailed),
);

function loadFailed(error: unknown) {
  console.warn(error);
  return { default: () => null };
}

/** Spec §7: whether a session exists; a failed check counts as none. */
async function hasSession(signal?: AbortSignal): Promise<boolean> {
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
  // The language layout's loader asked the identity service on this page's request (or saw no
  // session cookie): when it found no session, asking again from the browser would only get a
  // 401 (and a console error). Pages outside it (no language) still ask.
  const layout = useRouteLoaderData<{ signedIn?: boolean }>("routes/locale-layout");
  const serverSawNone = layout?.signedIn === false;
  const [signedIn, setSignedIn] = useState(false);
  const [ended, setEnded] = useState(false);
  // Nothing of this renders on the server.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  useEffect(() => {
    if (serverSawNone) return;
    const controller = new AbortController();
    void hasSession(controller.signal).then((active) => {
      if (!controller.signal.aborted) setSignedIn(active);
    });
    return () => controller.abort();
  }, [pathname, serverSawNone]);

  if (!hydrated) return null;
  return (
    <>
      <FingerprintAgent revalidateMs={settings.fingerprintRevalidateMs} />
      {((signedIn && !serverSawNone) || ended) && (
        <Suspense fallback={null}>
          <IdleTimeout settings={settings} onEnded={() => setEnded(true)} />
        </Suspense>
      )}
    </>
  );
}
