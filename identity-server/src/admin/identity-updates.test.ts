import * as bcrypt from "@node-rs/bcrypt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type TestResponse } from "../test-support/http-client.ts";
import { registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

interface IdentityBody {
  id: string;
  state: string;
  state_changed_at?: string;
  traits: Record<string, unknown>;
  metadata_public: unknown;
  metadata_admin?: unknown;
  verifiable_addresses?: { value: string; verified: boolean; status: string }[];
  recovery_addresses?: { value: string }[];
  credentials?: Record<string, { identifiers: string[]; config?: Record<string, unknown> }>;
}

function json(method: string, url: string, body: unknown): Promise<TestResponse> {
  return call(url, {
    method,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function createIdentity(email: string, extra: Record<string, unknown> = {}) {
  const response = await json("POST", `${ts.adminUrl}/admin/identities`, {
    schema_id: "default",
    traits: { email },
    credentials: { password: { config: { password: strongPassword } } },
    ...extra,
  });
  expect(response.status).toBe(201);
  return response.body as IdentityBody;
}

async function nativeLoginStatus(identifier: string): Promise<number> {
  const flow = await ts.native().createNativeLoginFlow();
  const response = await json("POST", `${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "password",
    identifier,
    password: strongPassword,
  });
  return response.status;
}

function errorOf(response: TestResponse) {
  return (response.body as { error: { reason?: string; message: string } }).error;
}

describe("PUT /admin/identities/{id}", () => {
  it("replaces traits and metadata, keeps addresses that stay and moves the identifier", async () => {
    const created = await createIdentity("put-old@example.com", {
      metadata_public: { a: 1 },
      metadata_admin: { b: 2 },
    });
    const put = await json("PUT", `${ts.adminUrl}/admin/identities/${created.id}`, {
      schema_id: "default",
      traits: { email: "Put-New@example.com", phone: "+4915112345678" },
      state: "active",
      metadata_public: { c: 3 },
    });
    expect(put.status).toBe(200);
    const body = put.body as IdentityBody;
    expect(body.traits).toEqual({ email: "Put-New@example.com", phone: "+4915112345678" });
    expect(body.metadata_public).toEqual({ c: 3 });
    // Absent metadata is cleared, as Kratos' update does.
    expect(body.metadata_admin).toBeNull();
    expect(body.verifiable_addresses?.map((a) => a.value)).toEqual([
      "put-new@example.com",
      "+4915112345678",
    ]);
    expect(body.credentials?.password?.identifiers).toEqual(["put-new@example.com"]);
    expect(body.credentials?.password?.config).toBeUndefined();
    expect(await nativeLoginStatus("put-new@example.com")).toBe(200);
    expect(await nativeLoginStatus("put-old@example.com")).toBe(400);
  });

  it("deactivates an identity (state_changed_at moves) and its sessions stop working", async () => {
    const { token, identityId } = await registerNative(ts, "put-state@example.com");
    const before = (await call(`${ts.adminUrl}/admin/identities/${identityId}`))
      .body as IdentityBody;
    ts.advanceClock(5_000);
    const put = await json("PUT", `${ts.adminUrl}/admin/identities/${identityId}`, {
      traits: before.traits,
      state: "inactive",
    });
    expect(put.status).toBe(200);
    const body = put.body as IdentityBody;
    expect(body.state).toBe("inactive");
    expect(body.state_changed_at).not.toBe(before.state_changed_at);
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, {
      headers: { "x-session-token": token },
    });
    expect(whoami.status).toBe(401);
  });

  it("imports a new password on top of the identity", async () => {
    const created = await createIdentity("put-password@example.com");
    const put = await json("PUT", `${ts.adminUrl}/admin/identities/${created.id}`, {
      traits: { email: "put-password@example.com" },
      credentials: { password: { config: { password: "a-Brand-new-secret-99" } } },
    });
    expect(put.status).toBe(200);
    const flow = await ts.native().createNativeLoginFlow();
    const login = await json("POST", `${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "password",
      identifier: "put-password@example.com",
      password: "a-Brand-new-secret-99",
    });
    expect(login.status).toBe(200);
  });

  it("answers 400 for invalid traits, states and bodies, 404 for unknown ids, 409 for clashes", async () => {
    const created = await createIdentity("put-errors@example.com");
    await createIdentity("put-taken@example.com");
    const url = `${ts.adminUrl}/admin/identities/${created.id}`;

    const invalid = await json("PUT", url, { traits: { email: "nope" } });
    expect(invalid.status).toBe(400);
    expect(errorOf(invalid).reason).toContain("traits.email");

    const missing = await json("PUT", url, { state: "active" });
    expect(missing.status).toBe(400);

    const state = await json("PUT", url, { traits: { email: "x@example.com" }, state: "gone" });
    expect(state.status).toBe(400);

    expect((await json("PUT", url, "[1,2]")).status).toBe(400);
    expect((await json("PUT", url, "{")).status).toBe(400);

    const clash = await json("PUT", url, { traits: { email: "PUT-TAKEN@example.com" } });
    expect(clash.status).toBe(409);
    expect(errorOf(clash).reason).toBe(
      "This identity conflicts with another identity that already exists.",
    );

    const unknown = await json(
      "PUT",
      `${ts.adminUrl}/admin/identities/6a1c0e6b-0000-4000-8000-000000000000`,
      { traits: { email: "ghost@example.com" } },
    );
    expect(unknown.status).toBe(404);

    // Nothing of the failed updates stuck.
    const after = (await call(url)).body as IdentityBody;
    expect(after.traits).toEqual({ email: "put-errors@example.com" });
  });
});

describe("PATCH /admin/identities/{id} (JSON Patch)", () => {
  it("adds, replaces and removes traits, metadata and state", async () => {
    const created = await createIdentity("patch-me@example.com", { metadata_admin: { keep: 1 } });
    const patch = await json("PATCH", `${ts.adminUrl}/admin/identities/${created.id}`, [
      { op: "replace", path: "/traits/email", value: "Patched@example.com" },
      { op: "add", path: "/traits/phone", value: "+4915199999999" },
      // Kratos turns a replace of a missing member into an add, and an add creates the parents.
      { op: "replace", path: "/metadata_public/profile/linked", value: ["agency-a"] },
      { op: "remove", path: "/metadata_admin/keep" },
      { op: "replace", path: "/state", value: "inactive" },
    ]);
    expect(patch.status).toBe(200);
    const body = patch.body as IdentityBody;
    expect(body.traits).toEqual({ email: "Patched@example.com", phone: "+4915199999999" });
    expect(body.metadata_public).toEqual({ profile: { linked: ["agency-a"] } });
    expect(body.metadata_admin).toEqual({});
    expect(body.state).toBe("inactive");
    expect(body.credentials?.password?.identifiers).toEqual(["patched@example.com"]);
    expect(body.recovery_addresses?.map((a) => a.value)).toEqual(["patched@example.com"]);
  });

  it("marks an address verified and keeps it when the traits still name it", async () => {
    const created = await createIdentity("patch-verify@example.com");
    const patch = await json("PATCH", `${ts.adminUrl}/admin/identities/${created.id}`, [
      { op: "replace", path: "/verifiable_addresses/0/verified", value: true },
      { op: "replace", path: "/verifiable_addresses/0/status", value: "completed" },
    ]);
    expect(patch.status).toBe(200);
    expect((patch.body as IdentityBody).verifiable_addresses).toMatchObject([
      { value: "patch-verify@example.com", verified: true, status: "completed" },
    ]);
    const again = (await call(`${ts.adminUrl}/admin/identities/${created.id}`)).body;
    expect((again as IdentityBody).verifiable_addresses?.[0]?.verified).toBe(true);
  });

  it("changes a credential's config, and refuses a hash it cannot verify", async () => {
    const created = await createIdentity("patch-cred@example.com");
    const ok = await json("PATCH", `${ts.adminUrl}/admin/identities/${created.id}`, [
      {
        op: "replace",
        path: "/credentials/password/config/hashed_password",
        value: await bcrypt.hash("another-Secret-123", { cost: 4 }),
      },
    ]);
    expect(ok.status).toBe(200);
    expect(await nativeLoginStatus("patch-cred@example.com")).toBe(400);
    const bad = await json("PATCH", `${ts.adminUrl}/admin/identities/${created.id}`, [
      { op: "replace", path: "/credentials/password/config/hashed_password", value: "plain" },
    ]);
    expect(bad.status).toBe(400);
  });

  it("refuses denied paths and operations Kratos does not allow", async () => {
    const created = await createIdentity("patch-denied@example.com");
    const url = `${ts.adminUrl}/admin/identities/${created.id}`;
    const cases: [unknown, string][] = [
      [[{ op: "replace", path: "/id", value: "x" }], "patch includes denied path: /id"],
      [[{ op: "remove", path: "/credentials" }], "patch includes denied path: /credentials"],
      [
        [{ op: "add", path: "/credentials/oidc/config", value: {} }],
        "patch includes denied path: /credentials/oidc/config",
      ],
      [[{ op: "move", from: "/traits", path: "/metadata_public" }], "unsupported operation: move"],
      [[{ op: "test", path: "/state", value: "active" }], "unsupported operation: test"],
      [
        [{ op: "remove", path: "/traits/nickname" }],
        'remove operation does not apply: doc is missing path: "/traits/nickname"',
      ],
    ];
    for (const [patch, message] of cases) {
      const response = await json("PATCH", url, patch);
      expect(response.status, message).toBe(400);
      expect(response.body).toEqual({
        error: {
          code: 400,
          status: "Bad Request",
          reason: "failed to apply JSON patch",
          message,
        },
      });
    }
    const state = await json("PATCH", url, [{ op: "replace", path: "/state", value: "asleep" }]);
    expect(errorOf(state).reason).toBe(
      "The supplied state ('asleep') was not valid. Valid states are ('active', 'inactive').",
    );
    const traits = await json("PATCH", url, [{ op: "remove", path: "/traits/email" }]);
    expect(traits.status).toBe(400);
    const type = await json("PATCH", url, [
      { op: "replace", path: "/credentials/password/type", value: "totp" },
    ]);
    expect(errorOf(type).reason).toBe(
      'credentials.password.type must equal "password", got "totp"',
    );
    const notJson = await json("PATCH", url, "{");
    expect(errorOf(notJson).reason).toBe("failed to unmarshal JSON patch");
    const notArray = await json("PATCH", url, { op: "remove", path: "/traits" });
    expect(notArray.status).toBe(400);

    const unknown = await json(
      "PATCH",
      `${ts.adminUrl}/admin/identities/6a1c0e6b-0000-4000-8000-000000000001`,
      [],
    );
    expect(unknown.status).toBe(404);
    const after = (await call(url)).body as IdentityBody;
    expect(after.traits).toEqual({ email: "patch-denied@example.com" });
    expect(after.state).toBe("active");
  });
});

describe("DELETE /admin/identities/{id}/credentials/{type}", () => {
  it("removes second factors but never the last first factor", async () => {
    const created = await createIdentity("delete-cred@example.com");
    // A TOTP credential, imported the way an administrator can: by patching its config in.
    const totp = await json("PATCH", `${ts.adminUrl}/admin/identities/${created.id}`, [
      {
        op: "add",
        path: "/credentials/totp",
        value: {
          type: "totp",
          identifiers: [created.id],
          config: { totp_url: "otpauth://totp/Example:delete-cred?secret=JBSWY3DPEHPK3PXP" },
        },
      },
    ]);
    expect(totp.status).toBe(200);
    expect(Object.keys((totp.body as IdentityBody).credentials ?? {}).sort()).toEqual([
      "password",
      "totp",
    ]);

    const removed = await call(`${ts.adminUrl}/admin/identities/${created.id}/credentials/totp`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const after = (await call(`${ts.adminUrl}/admin/identities/${created.id}`)).body;
    expect(Object.keys((after as IdentityBody).credentials ?? {})).toEqual(["password"]);

    const again = await call(`${ts.adminUrl}/admin/identities/${created.id}/credentials/totp`, {
      method: "DELETE",
    });
    expect(again.status).toBe(404);
    expect(errorOf(again).reason).toBe(
      "You tried to remove a totp but this user have no totp set up.",
    );

    const last = await call(`${ts.adminUrl}/admin/identities/${created.id}/credentials/password`, {
      method: "DELETE",
    });
    expect(last.status).toBe(400);
    expect(errorOf(last).reason).toBe("You cannot remove the last first factor credential.");

    const unknown = await call(
      `${ts.adminUrl}/admin/identities/6a1c0e6b-0000-4000-8000-000000000002/credentials/totp`,
      { method: "DELETE" },
    );
    expect(unknown.status).toBe(404);
  });

  it("refuses types Kratos does not delete here", async () => {
    const created = await createIdentity("delete-code@example.com");
    const code = await json("PATCH", `${ts.adminUrl}/admin/identities/${created.id}`, [
      {
        op: "add",
        path: "/credentials/code",
        value: { type: "code", identifiers: [created.id], config: { addresses: [] } },
      },
    ]);
    expect(code.status).toBe(200);
    const response = await call(`${ts.adminUrl}/admin/identities/${created.id}/credentials/code`, {
      method: "DELETE",
    });
    expect(response.status).toBe(400);
    expect(errorOf(response).reason).toBe("Credentials type code cannot be deleted.");
  });
});
