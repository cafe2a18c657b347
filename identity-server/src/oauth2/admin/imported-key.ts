import { createPrivateKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { generatedAlgorithms } from "../crypto/signing-keys.ts";
import type { PrivateJwk } from "../crypto/signing-keys.ts";
import { HydraError } from "../hydra-error.ts";

const refused = (reason: string) => new HydraError(400, "Bad Request", reason);

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
 * The body of Hydra's setJsonWebKey as a signing key this service can use: a private key (the
 * service signs with it) of an accepted algorithm, for signing, named by the path's `kid`.
 */
export function importedSigningKey(body: unknown, kid: string): PrivateJwk {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw refused("The request body must be a JSON Web Key");
  }
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
    throw refused(`The key does not fit ${alg} (RSA keys need at least 2048 bits)`);
  }
  return { ...key.export({ format: "jwk" }), kid, alg, use: "sig" };
}
