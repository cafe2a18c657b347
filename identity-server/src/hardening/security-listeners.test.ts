import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// DESIGN §5: admin listeners bind 127.0.0.1, even when the public listener binds every interface.
// (identity-server/src/admin/identities.test.ts and oauth2/identity-server-integration.test.ts
// check the URL of the default set-up; this is the 0.0.0.0 case, tried over the wire.)

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_PUBLIC_HOST: "0.0.0.0" });
});
afterAll(() => ts.stop());

/** Whether a TCP connection to host:port is accepted (no timers: the socket's own events). */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** This machine's non-loopback IPv4 addresses (may be none in a sandbox). */
function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && info.family === "IPv4" && !info.internal)
    .map((info) => info?.address ?? "");
}

describe("listeners", () => {
  it("binds the public listeners where configured and every admin listener to loopback", () => {
    const oauth2 = ts.server.oauth2;
    expect(oauth2).toBeDefined();
    expect(new URL(ts.publicUrl).hostname).toBe("0.0.0.0");
    expect(new URL(oauth2?.publicUrl ?? "").hostname).toBe("0.0.0.0");
    for (const url of [ts.adminUrl, oauth2?.adminUrl ?? "", ts.mailboxUrl]) {
      expect(new URL(url).hostname, url).toBe("127.0.0.1");
    }
  });

  it("refuses connections to the admin listeners on every non-loopback address", async () => {
    const admin = [ts.adminUrl, ts.server.oauth2?.adminUrl ?? "", ts.mailboxUrl].map((url) =>
      Number(new URL(url).port),
    );
    const publicPort = Number(new URL(ts.publicUrl).port);
    // Reachable over loopback, so a refusal below is about the interface, not a dead listener.
    for (const port of admin)
      expect(await connects("127.0.0.1", port), `loopback ${port}`).toBe(true);
    const addresses = externalAddresses();
    // Without a non-loopback address nothing below would be tried: say so rather than pass.
    expect(addresses, "this machine's non-loopback IPv4 addresses").not.toEqual([]);
    for (const address of addresses) {
      // The public listener answers on this address, so the address itself is reachable.
      expect(await connects(address, publicPort), `${address} public`).toBe(true);
      for (const port of admin) {
        expect(await connects(address, port), `${address}:${port}`).toBe(false);
      }
    }
  });
});
