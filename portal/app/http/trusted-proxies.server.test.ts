// @vitest-environment node
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";
import { clientAddress, parseTrustedProxies } from "./trusted-proxies.server.ts";

describe("PORTAL_TRUSTED_PROXIES", () => {
  it("takes addresses, CIDR ranges and proxy-addr's names, separated by commas or spaces", () => {
    expect(parseTrustedProxies("loopback")).toEqual(["loopback"]);
    expect(parseTrustedProxies(" 10.0.0.0/8, fd00::/8  192.168.1.7,uniquelocal ")).toEqual([
      "10.0.0.0/8",
      "fd00::/8",
      "192.168.1.7",
      "uniquelocal",
    ]);
    expect(parseTrustedProxies("10.0.0.0/255.0.0.0")).toEqual(["10.0.0.0/255.0.0.0"]);
    // As wide as a list may go: a private network's range.
    expect(parseTrustedProxies("10.0.0.0/8 fc00::/7 ::ffff:10.0.0.0/104")).toHaveLength(3);
    expect(parseTrustedProxies("none")).toEqual([]);
  });

  it.each([
    ["10.0.0.0/33", /invalid range on address: 10\.0\.0\.0\/33/],
    ["10.0.0.300", /invalid IP address: 10\.0\.0\.300/],
    ["10.0.0.0/8, proxy.example.gov", /invalid IP address: proxy\.example\.gov/],
    [" , ", /must list addresses, ranges or `none`/],
    // Found by an independent attack: a hop count read as 0.0.0.1, a range trusting everyone.
    ["1", /"1" reads as an address, not a number of hops/],
    ["10.0.0.0/8, 2", /"2" reads as an address/],
    ["::ffff:0.0.0.0/96", /"::ffff:0\.0\.0\.0\/96" is wider than a private network/],
    ["0.0.0.0/1, 128.0.0.0/1", /"0\.0\.0\.0\/1" is wider than a private network/],
    ["::/1, 8000::/1", /"::\/1" is wider than a private network/],
    // Found by a second attack: half the Internet, or all of it but two /8s, passed the spot check.
    ["128.0.0.0/1", /wider than a private network/],
    ["8000::/1", /wider than a private network/],
    ["2.0.0.0/7, 4.0.0.0/6, 8.0.0.0/5, 16.0.0.0/4, 32.0.0.0/3", /"2\.0\.0\.0\/7" is wider/],
    ["0.0.0.0/128.0.0.0", /wider than a private network/],
    ["::ffff:0:0/97", /wider than a private network/],
  ])("refuses %j, saying which entry is wrong", (value, message) => {
    expect(() => parseTrustedProxies(value)).toThrow(message);
  });
});

describe("the browser's address", () => {
  it("is req.ip when that is an address, else the peer's own (never a string a proxy passed)", () => {
    const socket = { remoteAddress: "10.0.0.5" };
    expect(clientAddress({ ip: "203.0.113.7", socket })).toBe("203.0.113.7");
    expect(clientAddress({ ip: "2001:db8::7", socket })).toBe("2001:db8::7");
    expect(clientAddress({ ip: "definitely-not-an-ip", socket })).toBe("10.0.0.5");
    expect(clientAddress({ ip: undefined, socket })).toBe("10.0.0.5");
  });
});

// The real portal behind a "load balancer" (the test, connecting from 127.0.0.1): which address
// the identity service is told about, on a page's own calls and through the /api/kratos proxy.

let seen: Record<string, string | undefined> = {};
let identity: Server;
let identityUrl: string;

beforeAll(async () => {
  identity = createServer((req, res) => {
    req.resume();
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path !== "/health/ready") seen[path] ??= req.headers["x-forwarded-for"]?.toString();
    // Whatever the page makes of this answer: only the header of its call matters here.
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => identity.listen(0, "127.0.0.1", resolve));
  identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
});

afterAll(async () => {
  identity.closeAllConnections();
  await new Promise((resolve) => identity.close(resolve));
});

beforeEach(() => {
  seen = {};
});

/** A page (its loader creates a login flow) and a call through the proxy. */
async function visit(portal: PortalProcess, forwardedFor: string) {
  const headers = { "x-forwarded-for": forwardedFor };
  await (await fetch(`${portal.origin}/en/login`, { headers, redirect: "manual" })).text();
  await (await fetch(`${portal.origin}/api/kratos/echo`, { headers })).text();
  await portal.printed('"path":"/api/kratos/echo"');
}

describe("behind a load balancer whose range is trusted", () => {
  let portal: PortalProcess;
  beforeAll(async () => {
    portal = await startPortalProcess({
      KRATOS_PUBLIC_URL: identityUrl,
      PORTAL_TRUSTED_PROXIES: "127.0.0.0/8, 198.51.100.0/24",
    });
  }, 60_000);
  afterAll(() => portal.stop());

  it("passes on the browser's address, the nearest one not trusted", async () => {
    await visit(portal, "203.0.113.7, 198.51.100.2");
    expect(seen["/self-service/login/browser"]).toBe("203.0.113.7");
    expect(seen["/echo"]).toBe("203.0.113.7");
    expect(portal.output()).toContain('"ip":"203.0.113.7"');
  }, 30_000);
});

describe("behind a load balancer outside the trusted ranges", () => {
  let portal: PortalProcess;
  beforeAll(async () => {
    portal = await startPortalProcess({
      KRATOS_PUBLIC_URL: identityUrl,
      PORTAL_TRUSTED_PROXIES: "10.0.0.0/8",
    });
  }, 60_000);
  afterAll(() => portal.stop());

  it("ignores X-Forwarded-For and passes on the balancer's own address", async () => {
    await visit(portal, "203.0.113.7");
    expect(seen["/self-service/login/browser"]).toBe("127.0.0.1");
    expect(seen["/echo"]).toBe("127.0.0.1");
    expect(portal.output()).toContain('"ip":"127.0.0.1"');
    expect(portal.output()).not.toContain("203.0.113.7");
  }, 30_000);
});

it("does not start with a bad range, naming the variable", async () => {
  const outcome = await startPortalProcess({ PORTAL_TRUSTED_PROXIES: "10.0.0.0/33" }).then(
    async (portal) => {
      await portal.stop();
      return "started";
    },
    (error: unknown) => String(error),
  );
  expect(outcome).toMatch(/PORTAL_TRUSTED_PROXIES: invalid range on address: 10\.0\.0\.0\/33/);
}, 60_000);
