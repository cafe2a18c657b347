import type { ServerContext } from "../context.ts";
import { isUuid } from "../http/uuid-param.ts";
import { badRequest, HerodotError } from "../http/errors.ts";
import type { Identity } from "../identity/identity.ts";
import { insertIdentities } from "../store/identity-batch-insert.ts";
import { parseCreateIdentityBody, type CreateIdentityBody } from "./create-identity-body.ts";
import { InvalidTraitsError } from "./identity-changes.ts";
import { identityFromCreateBody } from "./identity-create.ts";

// Kratos' limits (identity/handler.go): hashing plain passwords is what makes a batch slow.
const batchLimit = 1000;
const batchWithPasswordLimit = 200;

interface PatchResult {
  action: "create" | "error";
  identity?: string;
  patch_id?: string;
  error?: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function unknownField(name: string): HerodotError {
  return new HerodotError(400, { message: `json: unknown field ${JSON.stringify(name)}` });
}

/** The body `{identities: [{create, patch_id?}]}`, decoded strictly as Kratos does. */
function parseBatch(raw: unknown): { create: CreateIdentityBody | undefined; patchId?: string }[] {
  if (!isObject(raw)) throw badRequest("The request body must be a JSON object.");
  for (const key of Object.keys(raw)) if (key !== "identities") throw unknownField(key);
  const list = raw.identities ?? [];
  if (!Array.isArray(list)) throw badRequest("identities must be an array.");
  if (list.length > batchLimit) {
    throw badRequest(
      `The maximum number of identities per request that can be created or deleted at once is ${batchLimit}.`,
    );
  }
  return list.map((item, i) => {
    if (!isObject(item)) throw badRequest(`identities[${i}] must be a JSON object.`);
    for (const key of Object.keys(item)) {
      if (key !== "create" && key !== "patch_id") throw unknownField(key);
    }
    const patchId = item.patch_id;
    if (patchId !== undefined && (typeof patchId !== "string" || !isUuid(patchId))) {
      throw badRequest(`identities[${i}].patch_id must be a UUID.`);
    }
    return {
      create:
        item.create === undefined || item.create === null
          ? undefined
          : parseCreateIdentityBody(item.create),
      ...(patchId !== undefined ? { patchId: patchId.toLowerCase() } : {}),
    };
  });
}

/**
 * PATCH /admin/identities: creates many identities at once (Kratos' batchPatchIdentities). A body
 * or import error fails the whole request; an identity whose traits are invalid (400) or that
 * clashes with another one (409) is reported as `action: "error"` while the others are created.
 */
export async function batchCreateIdentities(
  ctx: ServerContext,
  raw: unknown,
): Promise<{ identities: PatchResult[] }> {
  const patches = parseBatch(raw);
  const withPlainPassword = patches.filter((p) => p.create?.password?.password !== undefined);
  if (withPlainPassword.length > batchWithPasswordLimit) {
    throw badRequest(
      `The maximum number of identities per request that can be created with a plaintext password is ${batchWithPasswordLimit}.`,
    );
  }
  const now = ctx.now();
  const built: (Identity | HerodotError | undefined)[] = [];
  for (const patch of patches) {
    if (!patch.create) {
      built.push(undefined);
      continue;
    }
    try {
      built.push(await identityFromCreateBody(ctx, patch.create, now));
    } catch (error) {
      // Only schema violations are per identity; any other problem fails the batch (as Kratos).
      if (error instanceof InvalidTraitsError) {
        built.push(error);
        continue;
      }
      throw error;
    }
  }
  // Every valid identity is inserted together (one disk flush per transaction, not per identity).
  const valid = built.filter(
    (identity): identity is Identity =>
      identity !== undefined && !(identity instanceof HerodotError),
  );
  const clashes = await insertIdentities(ctx.db, valid);
  const clashOf = new Map(valid.map((identity, i) => [identity, clashes[i]]));
  const results: PatchResult[] = [];
  for (const [i, patch] of patches.entries()) {
    const identity = built[i];
    const patchId = patch.patchId !== undefined ? { patch_id: patch.patchId } : {};
    if (identity === undefined) continue;
    if (identity instanceof HerodotError) {
      results.push({
        action: "error",
        ...patchId,
        error: identity.body() as unknown as Record<string, unknown>,
      });
      continue;
    }
    if (clashOf.get(identity) === undefined) {
      results.push({ action: "create", identity: identity.id, ...patchId });
      continue;
    }
    const clash = new HerodotError(409, {
      message:
        "Unable to insert or update resource because a resource with that value exists already",
    });
    results.push({
      action: "error",
      ...patchId,
      error: clash.body() as unknown as Record<string, unknown>,
    });
  }
  return { identities: results };
}
