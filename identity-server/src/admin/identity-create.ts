import { randomUUID } from "node:crypto";
import type { ServerContext } from "../context.ts";
import type { Identity } from "../identity/identity.ts";
import type { CreateIdentityBody } from "./create-identity-body.ts";
import {
  givenRecoveryAddresses,
  givenVerifiableAddresses,
  importPassword,
  validatedIdentity,
} from "./identity-changes.ts";

/**
 * The identity a create body describes (Kratos' identityFromCreateIdentityBody + the manager's
 * validation): the password is imported first (a bad hash is a 400 for the whole request), then
 * the traits are validated (InvalidTraitsError) and the addresses derived. Addresses the body
 * lists keep their verification state when the traits produce them, so verified addresses can be
 * imported.
 */
export async function identityFromCreateBody(
  ctx: ServerContext,
  body: CreateIdentityBody,
  now: Date,
): Promise<Identity> {
  const identity: Identity = {
    id: randomUUID(),
    schemaId: ctx.schema.id,
    state: body.state ?? "active",
    stateChangedAt: now,
    traits: {},
    verifiableAddresses: givenVerifiableAddresses(body.verifiableAddresses ?? [], [], now),
    recoveryAddresses: givenRecoveryAddresses(body.recoveryAddresses ?? [], [], now),
    credentials: [],
    metadataPublic: body.metadataPublic ?? null,
    metadataAdmin: body.metadataAdmin ?? null,
    createdAt: now,
    updatedAt: now,
  };
  if (body.password) await importPassword(identity, body.password, now);
  return validatedIdentity(ctx, identity, body.traits, now);
}
