import * as argon2 from "@node-rs/argon2";
import * as bcrypt from "@node-rs/bcrypt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

const password = "imported-Secret-4711";

async function createWithHash(email: string, hashed: string) {
  return call(`${ts.adminUrl}/admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      schema_id: "default",
      traits: { email },
      credentials: { password: { config: { hashed_password: hashed } } },
    }),
  });
}

async function nativeLogin(identifier: string, secret: string) {
  const flow = await ts.native().createNativeLoginFlow();
  return call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ method: "password", identifier, password: secret }),
  });
}

async function storedHash(id: string): Promise<string> {
  const identity = await ts.admin().getIdentity({ id, includeCredential: ["password"] });
  return (identity.credentials?.password?.config as { hashed_password: string }).hashed_password;
}

describe("importing hashed passwords (POST /admin/identities)", () => {
  for (const version of ["2a", "2b", "2y"] as const) {
    it(`signs in with a bcrypt $${version}$ hash and re-hashes it to argon2id`, async () => {
      const hashed = await bcrypt.hash(password, { cost: 4, version });
      expect(hashed.startsWith(`$${version}$04$`)).toBe(true);
      const created = await createWithHash(`bcrypt-${version}@example.com`, hashed);
      expect(created.status).toBe(201);
      const id = (created.body as { id: string }).id;
      expect(await storedHash(id)).toBe(hashed);

      const wrong = await nativeLogin(`bcrypt-${version}@example.com`, "not-the-password-1");
      expect(wrong.status).toBe(400);
      expect(await storedHash(id)).toBe(hashed);

      const login = await nativeLogin(`bcrypt-${version}@example.com`, password);
      expect(login.status).toBe(200);
      const migrated = await storedHash(id);
      expect(migrated).toMatch(/^\$argon2id\$/);
      // The new hash works, and the next login keeps it.
      expect((await nativeLogin(`bcrypt-${version}@example.com`, password)).status).toBe(200);
      expect(await storedHash(id)).toBe(migrated);
    });
  }

  it("keeps an argon2id hash as imported and migrates an argon2i one", async () => {
    const argon2id = await argon2.hash(password, { memoryCost: 4096, timeCost: 1 });
    const idCreated = await createWithHash("argon2id@example.com", argon2id);
    const idIdentity = (idCreated.body as { id: string }).id;
    expect((await nativeLogin("argon2id@example.com", password)).status).toBe(200);
    expect(await storedHash(idIdentity)).toBe(argon2id);

    const argon2i = await argon2.hash(password, { algorithm: 1, memoryCost: 4096, timeCost: 1 });
    expect(argon2i).toMatch(/^\$argon2i\$/);
    const iCreated = await createWithHash("argon2i@example.com", argon2i);
    const iIdentity = (iCreated.body as { id: string }).id;
    expect((await nativeLogin("argon2i@example.com", password)).status).toBe(200);
    expect(await storedHash(iIdentity)).toMatch(/^\$argon2id\$/);
  });

  it("refuses hashes it cannot verify or whose cost is out of bounds, with Kratos' reasons", async () => {
    const cases: [string, string][] = [
      ["{SSHA}not-supported", "The imported password does not match any known hash format."],
      ["plain-text", "The imported password does not match any known hash format."],
      ["$argon2id$v=19$garbage", "The imported password hash could not be parsed."],
      ["$2b$12$tooShort", "The imported password hash could not be parsed."],
      [
        // Only parsed, never computed: a cost-16 hash would take seconds to make.
        (await bcrypt.hash(password, { cost: 4 })).replace("$04$", "$16$"),
        "The imported password hash declares cost parameters that exceed the bounds enforced by Ory. Re-hash the password with a more conservative configuration before importing.",
      ],
      [
        "$argon2id$v=19$m=4096,t=11,p=1$c29tZXNhbHRzb21lc2FsdA$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ",
        "The imported password hash declares cost parameters that exceed the bounds enforced by Ory. Re-hash the password with a more conservative configuration before importing.",
      ],
    ];
    for (const [hashed, reason] of cases) {
      const response = await createWithHash("refused-hash@example.com", hashed);
      expect(response.status, hashed).toBe(400);
      expect(response.body).toEqual({
        error: {
          code: 400,
          status: "Bad Request",
          reason,
          message: "The request was malformed or contained invalid parameters",
        },
      });
    }
    const list = await call(
      `${ts.adminUrl}/admin/identities?credentials_identifier=refused-hash@example.com`,
    );
    expect(list.body).toEqual([]);
  });

  it("prefers a plain password over a hash and refuses the migration hook", async () => {
    const created = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema_id: "default",
        traits: { email: "both@example.com" },
        credentials: { password: { config: { password, hashed_password: "$2b$04$whatever" } } },
      }),
    });
    expect(created.status).toBe(201);
    expect((await nativeLogin("both@example.com", password)).status).toBe(200);

    const hook = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema_id: "default",
        traits: { email: "hook@example.com" },
        credentials: { password: { config: { use_password_migration_hook: true } } },
      }),
    });
    expect(hook.status).toBe(400);
  });

  it("imports verified addresses the traits produce and ignores addresses they do not", async () => {
    const created = await ts.admin().createIdentity({
      createIdentityBody: {
        schema_id: "default",
        traits: { email: "Verified.Import@example.com" },
        verifiable_addresses: [
          {
            value: "verified.import@example.com",
            via: "email",
            verified: true,
            status: "completed",
          },
          { value: "stray@example.com", via: "email", verified: true, status: "completed" },
        ],
      },
    });
    expect(created.verifiable_addresses).toHaveLength(1);
    expect(created.verifiable_addresses?.[0]).toMatchObject({
      value: "verified.import@example.com",
      verified: true,
      status: "completed",
    });
    expect(created.verifiable_addresses?.[0]?.verified_at).toBeInstanceOf(Date);
  });
});

describe("PATCH /admin/identities (batch create)", () => {
  it("creates the valid identities and reports the others per patch", async () => {
    await registerNative(ts, "batch-taken@example.com");
    const patchIds = [
      "0b7a2f0e-4a5d-4c57-9a3c-2f1e1c8b0001",
      "0b7a2f0e-4a5d-4c57-9a3c-2f1e1c8b0002",
      "0b7a2f0e-4a5d-4c57-9a3c-2f1e1c8b0003",
    ];
    const hashed = await bcrypt.hash(password, { cost: 4 });
    const response = await call(`${ts.adminUrl}/admin/identities`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        identities: [
          {
            patch_id: patchIds[0],
            create: {
              schema_id: "default",
              traits: { email: "batch-1@example.com" },
              credentials: { password: { config: { hashed_password: hashed } } },
            },
          },
          {
            patch_id: patchIds[1],
            create: { schema_id: "default", traits: { email: "not-an-email" } },
          },
          {
            patch_id: patchIds[2],
            create: { schema_id: "default", traits: { email: "batch-taken@example.com" } },
          },
          { create: { schema_id: "default", traits: { email: "batch-4@example.com" } } },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const results = (response.body as { identities: Record<string, unknown>[] }).identities;
    expect(results).toHaveLength(4);
    expect(results[0]).toMatchObject({ action: "create", patch_id: patchIds[0] });
    expect(results[1]).toMatchObject({
      action: "error",
      patch_id: patchIds[1],
      error: { code: 400, status: "Bad Request" },
    });
    expect(results[2]).toEqual({
      action: "error",
      patch_id: patchIds[2],
      error: {
        code: 409,
        status: "Conflict",
        message:
          "Unable to insert or update resource because a resource with that value exists already",
      },
    });
    expect(results[3]).toMatchObject({ action: "create" });
    expect(results[3]).not.toHaveProperty("patch_id");
    expect((await nativeLogin("batch-1@example.com", password)).status).toBe(200);
    const created = await ts.admin().getIdentity({ id: String(results[3]?.identity) });
    expect(created.traits).toEqual({ email: "batch-4@example.com" });
  });

  it("fails the whole batch for a malformed body or a bad hash", async () => {
    const unknown = await call(`${ts.adminUrl}/admin/identities`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identities: [], extra: true }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { message: 'json: unknown field "extra"' } });

    const badHash = await call(`${ts.adminUrl}/admin/identities`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        identities: [
          { create: { schema_id: "default", traits: { email: "batch-ok@example.com" } } },
          {
            create: {
              schema_id: "default",
              traits: { email: "batch-bad-hash@example.com" },
              credentials: { password: { config: { hashed_password: "md5:nope" } } },
            },
          },
        ],
      }),
    });
    expect(badHash.status).toBe(400);
    const list = await call(
      `${ts.adminUrl}/admin/identities?credentials_identifier=batch-ok@example.com`,
    );
    expect(list.body).toEqual([]);

    const notJson = await call(`${ts.adminUrl}/admin/identities`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
  });

  it("limits plain passwords to 200 per batch", async () => {
    const identities = Array.from({ length: 201 }, (_, i) => ({
      create: {
        schema_id: "default",
        traits: { email: `limit-${i}@example.com` },
        credentials: { password: { config: { password } } },
      },
    }));
    const response = await call(`${ts.adminUrl}/admin/identities`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identities }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: {
        reason:
          "The maximum number of identities per request that can be created with a plaintext password is 200.",
      },
    });
  });
});
