import type { FastifyInstance } from "fastify";
import { idTokenKeySet, publicJwkOf, type SigningKeyRing } from "../crypto/signing-key-ring.ts";
import { generatedAlgorithms, type GeneratedAlgorithm } from "../crypto/signing-keys.ts";
import { conflict, HydraError, resourceNotFound } from "../hydra-error.ts";
import { importedSigningKey, isKeyId, keyIdRule } from "./imported-key.ts";
import { jsonBody } from "./request-input.ts";

const base = "/admin/keys";

type SetParams = { Params: { set: string } };
type KeyParams = { Params: { set: string; kid: string } };

/** Hydra's 400 for an algorithm it cannot generate (jwk.ErrUnsupportedKeyAlgorithm). */
const unsupported = (description: string) => new HydraError(400, "Bad Request", description);

const lastRs256 = () =>
  unsupported(
    "This is the last RS256 key: ID tokens are signed with RS256 unless a client asks otherwise. Create another RS256 key first.",
  );

/** Only the ID token set exists here; any other set is unknown, as an absent set is in Hydra. */
function checkedSet(set: string): void {
  if (set !== idTokenKeySet) throw resourceNotFound();
}

function createBody(body: unknown): { alg: GeneratedAlgorithm; kid: string | undefined } {
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const { alg, kid, use } = fields;
  if (typeof alg !== "string" || !(generatedAlgorithms as readonly string[]).includes(alg)) {
    throw unsupported(
      `Unsupported key algorithm: only ${generatedAlgorithms.join(", ")} keys can be generated for ${idTokenKeySet}`,
    );
  }
  if (use !== undefined && use !== "" && use !== "sig") {
    throw unsupported(`Only signing keys (use "sig") are kept in ${idTokenKeySet}`);
  }
  if (kid !== undefined && (typeof kid !== "string" || !isKeyId(kid))) {
    throw unsupported(keyIdRule);
  }
  return { alg: alg as GeneratedAlgorithm, kid: kid === "" ? undefined : kid };
}

/**
 * Hydra's JSON Web Key admin API (jwk/handler.go) for the ID token signing keys: list, read,
 * generate, import one key (PUT …/{kid}) and delete. Unlike Hydra, answers never carry private key
 * material (Hydra returns the private half of keys it keeps in software); replacing or deleting the
 * whole set is not offered.
 */
export function registerKeyRoutes(
  app: FastifyInstance,
  ring: SigningKeyRing,
  issuer: string,
): void {
  app.get<SetParams>(`${base}/:set`, async (request, reply) => {
    checkedSet(request.params.set);
    return reply.send({ keys: ring.keys.map(publicJwkOf) });
  });

  app.get<KeyParams>(`${base}/:set/:kid`, async (request, reply) => {
    checkedSet(request.params.set);
    const key = ring.find(request.params.kid);
    if (!key) throw resourceNotFound();
    return reply.send({ keys: [publicJwkOf(key)] });
  });

  app.post<SetParams>(`${base}/:set`, async (request, reply) => {
    checkedSet(request.params.set);
    const { alg, kid } = createBody(jsonBody(request));
    const created = await ring.add(alg, kid);
    if (created === "exists") throw conflict(`A key with the id ${kid ?? ""} exists already`);
    return (
      reply
        .code(201)
        // Hydra points at <issuer>/keys/<set>.
        .header("location", `${issuer}/keys/${encodeURIComponent(request.params.set)}`)
        .send({ keys: [publicJwkOf(created)] })
    );
  });

  app.put<KeyParams>(`${base}/:set/:kid`, async (request, reply) => {
    checkedSet(request.params.set);
    const key = importedSigningKey(jsonBody(request), request.params.kid);
    const stored = await ring.put(key);
    if (stored === "last-rs256") throw lastRs256();
    return reply.send(publicJwkOf(stored));
  });

  app.delete<KeyParams>(`${base}/:set/:kid`, async (request, reply) => {
    checkedSet(request.params.set);
    const outcome = await ring.remove(request.params.kid);
    if (outcome === "missing") throw resourceNotFound();
    if (outcome === "last-rs256") throw lastRs256();
    return reply.code(204).send();
  });
}
