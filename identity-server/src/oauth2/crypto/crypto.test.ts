import { describe, expect, it } from "vitest";
import { deriveKey, seal, unseal } from "./derived-keys.ts";
import { generateClientSecret } from "./random.ts";
import { hashSecret, verifySecret } from "./secret-hash.ts";

describe("client secret hashes", () => {
  it("verify the secret they were made from and nothing else", async () => {
    const hash = await hashSecret("correct horse");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifySecret("correct horse", hash)).toBe(true);
    expect(await verifySecret("correct horse!", hash)).toBe(false);
    // Salted: the same secret hashes differently each time.
    expect(await hashSecret("correct horse")).not.toBe(hash);
  });

  it("never match a malformed hash", async () => {
    for (const hash of [
      "",
      "plain",
      "scrypt$0$8$1$a$b",
      "bcrypt$10$x$y$z$w",
      "scrypt$16384$8$1$$",
    ]) {
      expect(await verifySecret("anything", hash)).toBe(false);
    }
  });
});

describe("generated client secrets", () => {
  it("are 26 URL-safe alphanumeric characters, as Hydra's", () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateClientSecret()));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9]{26}$/);
  });
});

describe("sealed values", () => {
  it("open with the same derived key only", () => {
    const key = deriveKey("server secret", "signing keys");
    expect(deriveKey("server secret", "signing keys")).toEqual(key);
    expect(deriveKey("server secret", "cookie keys")).not.toEqual(key);
    const sealed = seal(key, '{"kty":"RSA"}');
    expect(sealed).not.toContain("RSA");
    expect(unseal(key, sealed)).toBe('{"kty":"RSA"}');
    expect(() => unseal(deriveKey("other secret", "signing keys"), sealed)).toThrow();
    expect(() => unseal(key, "garbage")).toThrow();
  });
});
