import { describe, expect, it } from "vitest";
import { ClientAuthLimits } from "./client-auth-limits.ts";
import { KnownClientAddresses, knownClientAddressTtlMs } from "./known-client-addresses.ts";

describe("known client addresses", () => {
  it("are known per client and address for a day after the last success", () => {
    let now = 1_000_000;
    const known = new KnownClientAddresses(() => now);
    known.remember("client-a", "192.0.2.1");
    expect(known.has("client-a", "192.0.2.1")).toBe(true);
    expect(known.has("client-a", "192.0.2.2")).toBe(false);
    expect(known.has("client-b", "192.0.2.1")).toBe(false);
    // The parts cannot run into each other.
    known.remember('x","y', "z");
    expect(known.has("x", 'y","z')).toBe(false);

    now += knownClientAddressTtlMs - 1;
    known.remember("client-a", "192.0.2.1"); // another success renews the day
    now += knownClientAddressTtlMs - 1;
    expect(known.has("client-a", "192.0.2.1")).toBe(true);
    now += 1;
    expect(known.has("client-a", "192.0.2.1")).toBe(false);
  });

  it("keep at most a bounded number, dropping the least recently successful", () => {
    const known = new KnownClientAddresses(() => 0, 3);
    known.remember("client", "192.0.2.1");
    known.remember("client", "192.0.2.2");
    known.remember("client", "192.0.2.3");
    known.remember("client", "192.0.2.1"); // now the most recent
    for (let i = 10; i < 1010; i++) known.remember("client", `198.51.100.${i}`);
    expect(known.size).toBe(3);
    expect(known.has("client", "192.0.2.1")).toBe(false);
    expect(known.has("client", "198.51.100.1009")).toBe(true);

    const fresh = new KnownClientAddresses(() => 0, 3);
    fresh.remember("client", "192.0.2.1");
    fresh.remember("client", "192.0.2.2");
    fresh.remember("client", "192.0.2.1");
    fresh.remember("client", "192.0.2.3");
    fresh.remember("client", "192.0.2.4");
    expect(fresh.has("client", "192.0.2.1")).toBe(true);
    expect(fresh.has("client", "192.0.2.2")).toBe(false);
  });
});

describe("client authentication budgets with known addresses", () => {
  const rule = (max: number) => ({ max, windowMs: 60_000 });

  it("spare a known address the client's budget but not its own IP budget", () => {
    const limits = new ClientAuthLimits({ perClient: rule(2), perIp: rule(4) }, () => 0);
    limits.recordSuccess("client", "192.0.2.1");
    expect(limits.admit("client", "203.0.113.7")).toBeUndefined();
    expect(limits.admit("client", "203.0.113.7")).toBeUndefined();
    expect(limits.admit("client", "203.0.113.7")).toBeGreaterThan(0);
    // Another unknown address shares the spent client budget ...
    expect(limits.admit("client", "203.0.113.8")).toBeGreaterThan(0);
    // ... the known one does not, and its attempts do not count against it either.
    for (let attempt = 0; attempt < 4; attempt++) {
      expect(limits.admit("client", "192.0.2.1")).toBeUndefined();
    }
    // Its per-IP budget still holds.
    expect(limits.admit("client", "192.0.2.1")).toBeGreaterThan(0);
    expect(limits.knownAddresses).toBe(1);
  });
});
