// @vitest-environment node
import { afterEach, describe, expect, it } from "vitest";
import { loadThroughShutdown } from "../../../identity-server/src/test-support/shutdown-load.ts";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";

// SIGTERM while 20 clients load the sign-in page: the drain tracks sockets, not only parsed
// requests, so nothing sent before the balancer noticed the 503 is reset or refused.

let portal: PortalProcess | undefined;
afterEach(async () => {
  await portal?.stop();
});

describe.each([
  { keepAlive: false, label: "a connection per request" },
  { keepAlive: true, label: "keep-alive connections" },
])("SIGTERM under page load ($label)", ({ keepAlive }) => {
  it("answers every request sent until the balancer noticed, then exits 0", async () => {
    portal = await startPortalProcess({ PORTAL_SHUTDOWN_GRACE_MS: "30000" });
    const started = portal;
    const result = await loadThroughShutdown({
      origin: started.origin,
      method: "GET",
      path: "/en/login",
      clients: 20,
      keepAlive,
      signal: () => started.signal("SIGTERM"),
    });

    expect(result.failures).toEqual([]);
    expect(result.answeredAfterSignal).toBeGreaterThan(0);
    expect(await started.exited).toBe(0);
    expect(started.output()).not.toContain("still in flight");
  }, 60_000);
});
