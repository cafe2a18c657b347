import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";

/**
 * A new active identity for already validated traits, with the verifiable addresses (status
 * "pending" until a code is sent) and recovery addresses the schema extensions ask for.
 */
export function buildIdentity(
  ctx: ServerContext,
  traits: Record<string, unknown>,
  now: Date,
): Identity {
  const id = randomUUID();
  const derived = ctx.schema.derive(traits);
  return {
    id,
    schemaId: ctx.schema.id,
    state: "active",
    stateChangedAt: now,
    traits,
    verifiableAddresses: derived.verifiableAddresses.map((a) => ({
      id: randomUUID(),
      value: a.value,
      verified: false,
      via: a.via,
      status: "pending",
      verifiedAt: undefined,
      createdAt: now,
      updatedAt: now,
    })),
    recoveryAddresses: derived.recoveryAddresses.map((a) => ({
      id: randomUUID(),
      value: a.value,
      via: a.via,
      createdAt: now,
      updatedAt: now,
    })),
    credentials: [],
    metadataPublic: null,
    metadataAdmin: null,
    createdAt: now,
    updatedAt: now,
  };
}
