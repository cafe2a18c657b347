import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { IdentitySchema } from "./identity-schema.ts";
import { touchesProtectedFields, withTraits } from "./apply-traits.ts";
import type { Identity } from "./identity.ts";

const schema = IdentitySchema.load(
  fileURLToPath(new URL("../../identity.schema.json", import.meta.url)),
);
const then = new Date("2026-01-01T00:00:00Z");
const now = new Date("2026-02-01T00:00:00Z");

const identity: Identity = {
  id: "7d3f2a1b-0c9e-4d8f-a7b6-c5d4e3f2a1b0",
  schemaId: "default",
  state: "active",
  stateChangedAt: then,
  traits: { email: "ada@example.com" },
  verifiableAddresses: [
    {
      id: "a1",
      value: "ada@example.com",
      via: "email",
      verified: true,
      status: "completed",
      verifiedAt: then,
      createdAt: then,
      updatedAt: then,
    },
  ],
  recoveryAddresses: [
    { id: "r1", value: "ada@example.com", via: "email", createdAt: then, updatedAt: then },
  ],
  credentials: [
    {
      id: "c1",
      type: "password",
      identifiers: ["ada@example.com"],
      config: { hashed_password: "x" },
      version: 0,
      createdAt: then,
      updatedAt: then,
    },
  ],
  metadataPublic: null,
  metadataAdmin: null,
  createdAt: then,
  updatedAt: then,
};

describe("withTraits", () => {
  it("keeps the state of addresses that stay and adds new ones unverified", () => {
    const updated = withTraits(
      schema,
      identity,
      { email: "ada@example.com", phone: "+1 415 555 0100" },
      now,
    );
    expect(updated.verifiableAddresses.map((a) => [a.value, a.verified, a.status])).toEqual([
      ["ada@example.com", true, "completed"],
      ["+14155550100", false, "pending"],
    ]);
    expect(updated.verifiableAddresses[0]?.id).toBe("a1");
    expect(touchesProtectedFields(identity, updated)).toBe(true);
  });

  it("moves the password identifier and recovery address with the e-mail", () => {
    const updated = withTraits(schema, identity, { email: "Lovelace@Example.com" }, now);
    expect(updated.credentials[0]?.identifiers).toEqual(["lovelace@example.com"]);
    expect(updated.recoveryAddresses.map((a) => a.value)).toEqual(["lovelace@example.com"]);
    expect(updated.verifiableAddresses.map((a) => a.status)).toEqual(["pending"]);
    expect(touchesProtectedFields(identity, updated)).toBe(true);
  });

  it("does not count an unchanged identifier as protected (case only differs in the trait)", () => {
    const updated = withTraits(schema, identity, { email: "ADA@example.com" }, now);
    expect(touchesProtectedFields(identity, updated)).toBe(false);
  });
});
