import { randomUUID } from "node:crypto";
import type { ClientMetadata } from "oidc-provider";
import { generateClientSecret } from "../crypto/random.ts";
import { hashSecret } from "../crypto/secret-hash.ts";
import { badRequest, conflict, notFound } from "../hydra-error.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import type { SeedClient } from "../oauth2-config.ts";
import { isoSeconds } from "../time.ts";
import { clientJson, isPublicClient, type HydraClient } from "./client-document.ts";
import { readClientInput, readLifespans, type ClientInput } from "./client-input.ts";
import { providerMetadata } from "./client-metadata.ts";
import { buildClient } from "./client-rules.ts";
import {
  deleteClient,
  findClient,
  insertClient,
  secretHashesOf,
  updateClient,
  type StoredClient,
} from "./client-store.ts";
import { applyJsonPatch, JsonPatchError } from "./json-patch.ts";

export interface ClientServiceDeps {
  db: OAuth2Db;
  now: () => Date;
  /** oidc-provider's own metadata checks; throws a HydraError. */
  validateMetadata(metadata: ClientMetadata): Promise<void>;
  /** Called after a client was written (the provider may need to learn new scopes). */
  clientSaved(client: HydraClient): Promise<void>;
  /** Called after a client was deleted (its tokens go with it). */
  clientDeleted(clientId: string): Promise<void>;
}

/** A client answer: Hydra's JSON, with the secret when Hydra would echo it. */
export type ClientAnswer = Record<string, unknown>;

async function loadClient(deps: ClientServiceDeps, id: string): Promise<StoredClient> {
  const stored = await findClient(deps.db, id);
  if (!stored) throw notFound();
  return stored;
}

/** Validates a built client, hashing a new secret when one is given. */
async function prepare(
  deps: ClientServiceDeps,
  client: HydraClient,
  previous: StoredClient | undefined,
  newSecret: string | undefined,
): Promise<StoredClient> {
  const usesSecret =
    !isPublicClient(client) && client.token_endpoint_auth_method !== "private_key_jwt";
  let secretHash = previous?.secretHash ?? null;
  let rotated = previous?.rotatedSecretHashes ?? [];
  if (newSecret !== undefined && usesSecret) {
    secretHash = await hashSecret(newSecret);
    rotated = [];
  }
  if (!usesSecret) {
    secretHash = null;
    rotated = [];
  }
  if (usesSecret && !secretHash) {
    // A public client turned confidential without a secret gets one it can never learn; the
    // admin sets a real one with PUT or PATCH.
    secretHash = await hashSecret(generateClientSecret(32));
  }
  const stored: StoredClient = { client, secretHash, rotatedSecretHashes: rotated };
  await deps.validateMetadata(providerMetadata(client, secretHashesOf(stored)));
  return stored;
}

export async function createClient(deps: ClientServiceDeps, body: unknown): Promise<ClientAnswer> {
  const input = readClientInput(body);
  const now = isoSeconds(deps.now());
  const secret = input.client_secret || generateClientSecret();
  const client = buildClient(
    { ...input, client_secret: secret },
    { clientId: input.client_id || randomUUID(), createdAt: now, updatedAt: now },
  );
  const stored = await prepare(deps, client, undefined, secret);
  if (!(await insertClient(deps.db, stored))) throw conflict();
  await deps.clientSaved(client);
  return clientJson(client, stored.secretHash ? secret : undefined);
}

async function replaceWith(
  deps: ClientServiceDeps,
  previous: StoredClient,
  input: ClientInput,
): Promise<ClientAnswer> {
  const secret = input.client_secret || undefined;
  const client = buildClient(input, {
    clientId: previous.client.client_id,
    createdAt: previous.client.created_at,
    updatedAt: isoSeconds(deps.now()),
  });
  const stored = await prepare(deps, client, previous, secret);
  await updateClient(deps.db, stored);
  await deps.clientSaved(client);
  return clientJson(client, secret !== undefined && stored.secretHash ? secret : undefined);
}

/** PUT: replaces the client; a given secret replaces the old one (and forgets rotated ones). */
export async function replaceClient(
  deps: ClientServiceDeps,
  id: string,
  body: unknown,
): Promise<ClientAnswer> {
  const previous = await loadClient(deps, id);
  return replaceWith(deps, previous, readClientInput(body));
}

/** PATCH with a JSON Patch document over the client's JSON (without its secret). */
export async function patchClient(
  deps: ClientServiceDeps,
  id: string,
  patch: unknown,
): Promise<ClientAnswer> {
  const previous = await loadClient(deps, id);
  let patched: unknown;
  try {
    patched = applyJsonPatch(clientJson(previous.client), patch, ["/client_id"]);
  } catch (error) {
    if (error instanceof JsonPatchError) throw badRequest(error.message);
    throw error;
  }
  return replaceWith(deps, previous, readClientInput(patched));
}

/** PUT .../lifespans: sets every per-grant lifespan (missing ones fall back to the defaults). */
export async function setClientLifespans(
  deps: ClientServiceDeps,
  id: string,
  body: unknown,
): Promise<ClientAnswer> {
  const previous = await loadClient(deps, id);
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("Unable to decode the request body: the body must be a JSON object");
  }
  const lifespans = readLifespans(body as Record<string, unknown>);
  const nulls = Object.fromEntries(
    Object.keys(previous.client)
      .filter((key) => key.endsWith("_lifespan"))
      .map((key) => [key, null]),
  );
  const client: HydraClient = {
    ...previous.client,
    ...nulls,
    ...lifespans,
    updated_at: isoSeconds(deps.now()),
  };
  await updateClient(deps.db, { ...previous, client });
  await deps.clientSaved(client);
  return clientJson(client);
}

export async function removeClient(deps: ClientServiceDeps, id: string): Promise<void> {
  if (!(await deleteClient(deps.db, id))) throw notFound();
  await deps.clientDeleted(id);
}

export async function readClient(deps: ClientServiceDeps, id: string): Promise<ClientAnswer> {
  return clientJson((await loadClient(deps, id)).client);
}

/**
 * Registers the configured first-party client, or brings an existing one in line with the
 * configuration (idempotent: the same input leaves the same client, apart from updated_at).
 */
export async function upsertSeedClient(deps: ClientServiceDeps, seed: SeedClient): Promise<void> {
  const previous = await findClient(deps.db, seed.client_id);
  if (!previous) {
    await createClient(deps, seed);
    return;
  }
  await replaceWith(deps, previous, readClientInput(seed));
}
