import { describe, expect, it } from "vitest";
import {
  forgetVerifiedSecrets,
  rememberVerified,
  verifiedSecretCount,
  verifiedSecretMaxEntries,
  verifiedSecretTtlMs,
  wasVerified,
} from "./verified-secrets.ts";

describe("remembered client secret verifications", () => {
  it("vouch only for the same client, hash and secret, and only for a few minutes after use", () => {
    const now = 1_000_000;
    rememberVerified("client-a", "hash-1", "secret", now);
    expect(wasVerified("client-a", "hash-1", "secret", now + 1)).toBe(true);
    expect(wasVerified("client-a", "hash-1", "other-secret", now + 1)).toBe(false);
    expect(wasVerified("client-a", "hash-2", "secret", now + 1)).toBe(false);
    expect(wasVerified("client-b", "hash-1", "secret", now + 1)).toBe(false);
    // The last use (now + 1) renewed it for the full time, no longer.
    expect(wasVerified("client-a", "hash-1", "secret", now + 1 + verifiedSecretTtlMs)).toBe(false);
    // An expired entry is dropped when met.
    expect(wasVerified("client-a", "hash-1", "secret", now + 1)).toBe(false);
  });

  it("are renewed each time the secret is presented again (sliding), and expire when idle", () => {
    const now = 1_500_000;
    const step = verifiedSecretTtlMs - 1000;
    rememberVerified("client-busy", "hash", "secret", now);
    // Presented every few minutes: still remembered long after the first verification.
    for (let use = 1; use <= 5; use++) {
      expect(wasVerified("client-busy", "hash", "secret", now + use * step)).toBe(true);
    }
    const lastUse = now + 5 * step;
    expect(wasVerified("client-busy", "hash", "secret", lastUse + verifiedSecretTtlMs)).toBe(false);
  });

  it("are forgotten when their client changes or goes", () => {
    const now = 2_000_000;
    rememberVerified("client-c", "hash", "secret", now);
    rememberVerified("client-d", "hash", "secret", now);
    forgetVerifiedSecrets("client-c");
    expect(wasVerified("client-c", "hash", "secret", now)).toBe(false);
    expect(wasVerified("client-d", "hash", "secret", now)).toBe(true);
    forgetVerifiedSecrets("client-d");
  });

  it("keep at most a bounded number, dropping the least recently used", () => {
    const now = 3_000_000;
    rememberVerified("first", "hash", "secret", now);
    rememberVerified("second", "hash", "secret", now);
    expect(wasVerified("first", "hash", "secret", now)).toBe(true); // now the most recent
    for (let i = 0; i < verifiedSecretMaxEntries; i++) {
      rememberVerified(`filler-${i}`, "hash", "secret", now);
      if (i === verifiedSecretMaxEntries - 3) {
        expect(wasVerified("first", "hash", "secret", now)).toBe(true);
      }
    }
    expect(verifiedSecretCount()).toBe(verifiedSecretMaxEntries);
    expect(wasVerified("second", "hash", "secret", now)).toBe(false);
  });
});
