import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killChildServers, startChildServer } from "../test-support/child-server.ts";
import { loadThroughShutdown } from "../test-support/shutdown-load.ts";

// SIGTERM while 20 clients hammer the token endpoint: the drain tracks sockets, not only parsed
// requests, so nothing sent before the balancer noticed the 503 is reset or refused.

const dataDirs: string[] = [];
afterAll(() => {
  killChildServers();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const body = "grant_type=client_credentials&client_id=unknown-client&client_secret=wrong";

describe.each([
  { keepAlive: false, label: "a connection per request" },
  { keepAlive: true, label: "keep-alive connections" },
])("SIGTERM under token-endpoint load ($label)", ({ keepAlive }) => {
  it("answers every request sent until the balancer noticed, then exits 0", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "oauth2-drain-load-"));
    dataDirs.push(dataDir);
    const server = await startChildServer(dataDir, {
      IDENTITY_OAUTH2_ENABLED: "true",
      IDENTITY_OAUTH2_PUBLIC_PORT: "0",
      IDENTITY_OAUTH2_ADMIN_PORT: "0",
      IDENTITY_SHUTDOWN_GRACE: "30s",
    });
    const origin = server.oauth2PublicUrl;
    if (!origin) throw new Error("the OAuth2 service did not start");

    const result = await loadThroughShutdown({
      origin,
      method: "POST",
      path: "/oauth2/token",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "content-length": String(body.length),
      },
      body,
      clients: 20,
      keepAlive,
      signal: () => server.child.kill("SIGTERM"),
    });

    expect(result.failures).toEqual([]);
    // Hydra's answer for an unknown client, during the drain too.
    expect([...result.statuses]).toEqual([401]);
    expect(result.answeredAfterSignal).toBeGreaterThan(0);
    await server.exited;
    expect(server.child.exitCode).toBe(0);
  }, 60_000);
});
