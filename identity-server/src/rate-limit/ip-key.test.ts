import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientAuthLimits } from "../oauth2/clients/client-auth-limits.ts";
import { call } from "../test-support/http-client.ts";
import { messageIds, registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { ipLimitKey } from "./ip-key.ts";

// Second attack round on issue 12: every IPv6 address of one client's /64 had a budget of its own.

describe("ipLimitKey", () => {
  it("groups IPv6 by /64 and reads IPv4-mapped addresses as IPv4", () => {
    for (const ip of [
      "2001:db8:1:2::1",
      "2001:0db8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:DB8:1:2:a:b:c:d",
      "2001:db8:1:2::a%eth0",
      "2001:db8:1:2:0:0:192.0.2.1",
    ]) {
      expect(ipLimitKey(ip), ip).toBe("2001:db8:1:2::/64");
    }
    expect(ipLimitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(ipLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(ipLimitKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(ipLimitKey("::ffff:c633:6407")).toBe("198.51.100.7");
    expect(ipLimitKey("198.51.100.7")).toBe("198.51.100.7");
    expect(ipLimitKey("")).toBe("");
  });

  it("keys the OAuth2 client-auth IP budget by /64", () => {
    const limits = new ClientAuthLimits(
      { perClient: { max: 0, windowMs: 60_000 }, perIp: { max: 2, windowMs: 60_000 } },
      () => 0,
    );
    expect(limits.admit("client", "2001:db8:1:2::1")).toBeUndefined();
    expect(limits.admit("client", "2001:db8:1:2::2")).toBeUndefined();
    expect(limits.admit("client", "2001:db8:1:2::3")).toBeGreaterThan(0);
    expect(limits.admit("client", "2001:db8:1:3::1")).toBeUndefined();
  });
});

describe("per-IP budgets group IPv6 clients by /64", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer(
      {
        IDENTITY_RATE_LIMIT_PASSWORD_PER_IP: "3",
        IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP: "2",
      },
      undefined,
      { freezeClock: true },
    );
    await registerNative(ts, "v6@example.com");
  });
  afterAll(async () => {
    await ts.stop();
  });

  /** A JSON post to a fresh native flow of the kind, from the given client address. */
  async function submit(kind: "login" | "recovery", body: object, ip: string) {
    const api = ts.native();
    const flow =
      kind === "login" ? await api.createNativeLoginFlow() : await api.createNativeRecoveryFlow();
    const answer = await call(`${ts.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-forwarded-for": ip,
      },
      body: JSON.stringify(body),
    });
    return messageIds(answer.body as never, "");
  }

  it("counts wrong passwords from one /64 together", async () => {
    const wrong = (identifier: string, ip: string) =>
      submit("login", { method: "password", identifier, password: "not-the-password-1" }, ip);
    // Different identifiers, so only the IP budget can refuse.
    for (let i = 1; i <= 3; i++) {
      expect(await wrong(`nobody${i}@example.com`, `2001:db8:1:2::${i}`)).toEqual([4000006]);
    }
    expect(await wrong("nobody4@example.com", "2001:db8:1:2:ffff::9")).toEqual([9010007]);
    expect(await wrong("nobody5@example.com", "2001:db8:1:3::1")).toEqual([4000006]);
  });

  it("counts code sends from one /64 together, and IPv4-mapped as the IPv4 address", async () => {
    const ask = (email: string, ip: string) => submit("recovery", { method: "code", email }, ip);
    expect(await ask("a1@example.com", "2001:db8:9:9::1")).toEqual([1060003]);
    expect(await ask("a2@example.com", "2001:db8:9:9::2")).toEqual([1060003]);
    expect(await ask("a3@example.com", "2001:db8:9:9::3")).toEqual([9010008]);

    expect(await ask("b1@example.com", "198.51.100.44")).toEqual([1060003]);
    expect(await ask("b2@example.com", "::ffff:198.51.100.44")).toEqual([1060003]);
    expect(await ask("b3@example.com", "198.51.100.44")).toEqual([9010008]);
  });
});
