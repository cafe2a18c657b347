import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// AES-256-GCM keeps the login state (PKCE verifier, nonce) unreadable and untouchable in the
// browser: a signature alone would still show the verifier to anything that can read cookies.

export interface Sealer {
  seal(value: unknown, maxAgeSeconds: number): string;
  /** The sealed value, or undefined when it was altered, sealed with another key or expired. */
  open(sealed: string | undefined): unknown;
}

export function createSealer(secret: string, purpose: string, now = () => Date.now()): Sealer {
  // One key per purpose, so a value sealed for one cookie is never accepted as another.
  const key = Buffer.from(hkdfSync("sha256", secret, "demo-portal", purpose, 32));
  return {
    seal(value, maxAgeSeconds) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const plain = JSON.stringify({ v: value, exp: now() + maxAgeSeconds * 1000 });
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64url");
    },
    open(sealed) {
      if (!sealed) return undefined;
      const raw = Buffer.from(sealed, "base64url");
      if (raw.length < 29) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
        const { v, exp } = JSON.parse(plain.toString("utf8")) as { v: unknown; exp: number };
        return exp > now() ? v : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
