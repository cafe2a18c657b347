import {
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign,
  verify,
  type JsonWebKey,
  type KeyObject,
} from "node:crypto";
import { generatedAlgorithms } from "../crypto/signing-keys.ts";
import type { PrivateJwk } from "../crypto/signing-keys.ts";
import { HydraError } from "../hydra-error.ts";

const refused = (reason: string) => new HydraError(400, "Bad Request", reason);

/** Key ids go into the public JWKS and into tokens' headers: printable, no markup, bounded. */
export const keyIdRule =
  "The key id (kid) must be at most 255 letters, digits and the characters . _ - : ~ (or empty)";
export function isKeyId(kid: string): boolean {
  return /^[A-Za-z0-9._:~-]{0,255}$/.test(kid);
}

/** The key type and curve each accepted algorithm needs. */
const shapes: Record<string, { type: string; curve?: string }> = {
  RS256: { type: "rsa" },
  ES256: { type: "ec", curve: "prime256v1" },
  ES512: { type: "ec", curve: "secp521r1" },
};

function privateKeyOf(jwk: JsonWebKey): KeyObject {
  try {
    return createPrivateKey({ key: jwk, format: "jwk" });
  } catch {
    throw refused("The key must be a private RSA or EC JSON Web Key (with its private members)");
  }
}

/**
 * Whether what the private members sign verifies with the public members as sent: a key whose
 * halves come from two keys would sign tokens no relying party can verify with the JWKS.
 */
function halvesMatch(key: KeyObject): boolean {
  const message = randomBytes(32);
  try {
    return verify("sha256", message, createPublicKey(key), sign("sha256", message, key));
  } catch {
    return false;
  }
}

/**
 * The body of Hydra's setJsonWebKey as a signing key this service can use: a private key (the
 * service signs with it) of an accepted algorithm, for signing, named by the path's `kid`.
 */
export function importedSigningKey(body: unknown, kid: string): PrivateJwk {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw refused("The request body must be a JSON Web Key");
  }
  if (!isKeyId(kid) || kid === "") throw refused(keyIdRule);
  const jwk = body as JsonWebKey & { kid?: unknown; alg?: unknown; use?: unknown };
  if (jwk.kid !== undefined && jwk.kid !== kid) {
    throw refused("The kid of the key must be the kid in the path");
  }
  const alg = jwk.alg;
  if (typeof alg !== "string" || !(generatedAlgorithms as readonly string[]).includes(alg)) {
    throw refused(
      `Unsupported key algorithm: only ${generatedAlgorithms.join(", ")} keys are used`,
    );
  }
  if (jwk.use !== undefined && jwk.use !== "sig") {
    throw refused('Only signing keys (use "sig") are kept');
  }
  const key = privateKeyOf(jwk);
  const shape = shapes[alg] ?? { type: "none" };
  const details = key.asymmetricKeyDetails;
  if (
    key.asymmetricKeyType !== shape.type ||
    (shape.curve !== undefined && details?.namedCurve !== shape.curve) ||
    (shape.type === "rsa" && (details?.modulusLength ?? 0) < 2048)
  ) {
    throw refused(
      shape.type === "rsa"
        ? `The key does not fit ${alg}: an RSA key of at least 2048 bits`
        : `The key does not fit ${alg}: an EC key on ${alg === "ES256" ? "P-256" : "P-521"}`,
    );
  }
  if (!halvesMatch(key)) {
    throw refused("The private and public members of the key do not belong together");
  }
  return { ...key.export({ format: "jwk" }), kid, alg, use: "sig" };
}
