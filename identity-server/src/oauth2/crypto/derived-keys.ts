import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** A key for one purpose, derived from the server secret so restarts keep using the same one. */
export function deriveKey(secret: string, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "identity-server oauth2", purpose, length));
}

/** AES-256-GCM: `<iv>.<tag>.<ciphertext>`, base64url. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

/** Opens what `seal` produced with the same key; throws when the key or the data differ. */
export function unseal(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body) throw new Error("malformed sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
