import { ResponseError } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

async function nativeLogin(identifier: string, password: string) {
  const api = ts.native();
  const flow = await api.createNativeLoginFlow();
  return api.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: { method: "password", identifier, password },
  });
}

describe("admin identities API", () => {
  it("creates an identity with a password the user can sign in with", async () => {
    const admin = ts.admin();
    const created = await admin.createIdentity({
      createIdentityBody: {
        schema_id: "default",
        traits: { email: "Admin.Made@example.com" },
        credentials: { password: { config: { password: strongPassword } } },
        metadata_public: { user_profile: { linked: ["agency-a"], default: "agency-a" } },
        metadata_admin: { note: "imported" },
      },
    });
    expect(created.state).toBe("active");
    expect(created.metadata_admin).toEqual({ note: "imported" });
    expect(created.credentials?.password?.identifiers).toEqual(["admin.made@example.com"]);
    expect(created.credentials?.password?.config).toBeUndefined();

    const login = await nativeLogin("admin.made@example.com", strongPassword);
    expect(login.session.identity?.id).toBe(created.id);
    expect(login.session.identity?.metadata_public).toEqual({
      user_profile: { linked: ["agency-a"], default: "agency-a" },
    });
    expect(login.session.identity?.metadata_admin).toBeUndefined();
  });

  it("imports an argon2 hash as is", async () => {
    const reference = await ts.admin().createIdentity({
      createIdentityBody: {
        schema_id: "default",
        traits: { email: "hash-source@example.com" },
        credentials: { password: { config: { password: "imported-Secret-42" } } },
      },
    });
    const withHash = await ts
      .admin()
      .getIdentity({ id: reference.id, includeCredential: ["password"] });
    const hash = (withHash.credentials?.password?.config as { hashed_password: string })
      .hashed_password;
    expect(hash).toMatch(/^\$argon2id\$/);
    await ts.admin().createIdentity({
      createIdentityBody: {
        schema_id: "default",
        traits: { email: "hash-import@example.com" },
        credentials: { password: { config: { hashed_password: hash } } },
      },
    });
    const login = await nativeLogin("hash-import@example.com", "imported-Secret-42");
    expect(login.session.identity?.traits).toEqual({ email: "hash-import@example.com" });
  });

  it("answers 409 for a duplicate identifier and 400 for invalid traits or unknown fields", async () => {
    await registerNative(ts, "dup@example.com");
    const dup = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ schema_id: "default", traits: { email: "DUP@example.com" } }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      error: {
        code: 409,
        status: "Conflict",
        reason: "This identity conflicts with another identity that already exists.",
        message: "The resource could not be created due to a conflict",
      },
    });

    const invalid = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ schema_id: "default", traits: { email: "nope" } }),
    });
    expect(invalid.status).toBe(400);

    const unknown = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema_id: "default",
        traits: { email: "x@example.com" },
        nickname: "x",
      }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { message: 'json: unknown field "nickname"' } });
  });

  it("creates inactive identities that cannot sign in (4010011)", async () => {
    await ts.admin().createIdentity({
      createIdentityBody: {
        schema_id: "default",
        state: "inactive",
        traits: { email: "disabled@example.com" },
        credentials: { password: { config: { password: strongPassword } } },
      },
    });
    const api = ts.native();
    const flow = await api.createNativeLoginFlow();
    const response = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        method: "password",
        identifier: "disabled@example.com",
        password: strongPassword,
      }),
    });
    expect(response.status).toBe(400);
    expect(
      (response.body as { ui: { messages: { id: number }[] } }).ui.messages.map((m) => m.id),
    ).toEqual([4010011]);
  });

  it("answers 404 like Kratos for an unknown id", async () => {
    const response = await call(
      `${ts.adminUrl}/admin/identities/5f6c5a1e-0000-4000-8000-000000000000`,
    );
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: { code: 404, status: "Not Found", message: "Unable to locate the resource" },
    });
  });

  it("lists identities page by page with a Link header", async () => {
    for (const n of [1, 2, 3]) await registerNative(ts, `page-${n}@example.com`);
    const first = await call(`${ts.adminUrl}/admin/identities?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    const link = first.headers.get("link") ?? "";
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    const second = await call(`${ts.adminUrl}${next}`);
    const firstIds = (first.body as { id: string }[]).map((i) => i.id);
    for (const identity of second.body as { id: string }[])
      expect(firstIds).not.toContain(identity.id);
  });

  it("deletes an identity (204) and with it its sessions", async () => {
    const { token, identityId } = await registerNative(ts, "delete-me@example.com");
    await ts.admin().deleteIdentity({ id: identityId });
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, {
      headers: { "x-session-token": token },
    });
    expect(whoami.status).toBe(401);
    await expect(ts.admin().deleteIdentity({ id: identityId })).rejects.toBeInstanceOf(
      ResponseError,
    );
  });

  it("only listens on the loopback interface", () => {
    expect(new URL(ts.adminUrl).hostname).toBe("127.0.0.1");
  });
});
