import { randomBytes, randomInt } from "node:crypto";

/** A random URL-safe identifier with `bytes` bytes of entropy. */
export function randomId(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A client secret as Hydra generates them: 26 alphanumeric characters (URL-safe for Basic auth). */
export function generateClientSecret(length = 26): string {
  let secret = "";
  for (let i = 0; i < length; i++) secret += alphanumeric[randomInt(alphanumeric.length)];
  return secret;
}
