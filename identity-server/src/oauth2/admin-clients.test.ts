import { DatabaseSync } from "node:sqlite";
import path from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFileName } from "../store/database.ts";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  introspect,
  redirectUri,
  registerClient,
  relyingParty,
  signIn,
  tokenRequest,
} from "./test-support/portal-role.ts";

let service: OAuth2TestService;

beforeAll(async () => {
  service = await startOAuth2TestService();
});

afterAll(() => service.stop());

type Client = Record<string, unknown> & { client_id: string; client_secret?: string };

function storedSecretHash(clientId: string): string | null {
  const file = new DatabaseSync(path.join(service.dataDir, databaseFileName), { readOnly: true });
  try {
    const row = file
      .prepare("SELECT secret_hash, document FROM oauth2_clients WHERE id = ?")
      .get(clientId) as { secret_hash: string | null; document: string };
    expect(JSON.parse(row.document)).not.toHaveProperty("client_secret");
    return row.secret_hash;
  } finally {
    file.close();
  }
}

async function clientCredentialsStatus(clientId: string, secret: string): Promise<number> {
  const answer = await tokenRequest(
    service,
    { grant_type: "client_credentials" },
    { id: clientId, secret },
  );
  return answer.status;
}

describe("creating clients", () => {
  it("answers 201 with Hydra's client JSON and the generated secret, stored only as a hash", async () => {
    const created = await service.admin("POST", "/admin/clients", {
      json: {
        client_name: "Agency portal",
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: ["http://127.0.0.1:5555/signed-out"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        scope: "openid offline_access",
        audience: ["https://api.example.com"],
        owner: "agency",
        allowed_cors_origins: ["http://127.0.0.1:5555/"],
        contacts: ["ops@example.com"],
        metadata: { tier: "gold" },
        skip_consent: true,
      },
    });
    expect(created.status).toBe(201);
    const client = created.body as Client;
    expect(created.headers.get("location")).toBe(`/admin/clients/${client.client_id}`);
    expect(client).toMatchObject({
      client_name: "Agency portal",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      scope: "openid offline_access",
      audience: ["https://api.example.com"],
      owner: "agency",
      allowed_cors_origins: ["http://127.0.0.1:5555"],
      client_secret_expires_at: 0,
      subject_type: "public",
      token_endpoint_auth_method: "client_secret_basic",
      userinfo_signed_response_alg: "none",
      metadata: { tier: "gold" },
      skip_consent: true,
      skip_logout_consent: false,
      authorization_code_grant_access_token_lifespan: null,
    });
    expect(client.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.client_secret).toMatch(/^[A-Za-z0-9]{26}$/);
    expect(client.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const hash = storedSecretHash(client.client_id);
    const file = new DatabaseSync(path.join(service.dataDir, databaseFileName), { readOnly: true });
    const everything = JSON.stringify(file.prepare("SELECT * FROM oauth2_clients").all());
    file.close();
    expect(everything).not.toContain(client.client_secret);
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain(client.client_secret);

    const read = await service.admin("GET", `/admin/clients/${client.client_id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("client_secret");
    const withoutSecret: Record<string, unknown> = { ...client };
    delete withoutSecret.client_secret;
    expect(read.body).toEqual(withoutSecret);
  });

  it("keeps a chosen client id and secret, and defaults the scope as Hydra does", async () => {
    const created = await service.admin("POST", "/admin/clients", {
      json: {
        client_id: "chosen-id",
        client_secret: "chosen-secret-123",
        redirect_uris: [redirectUri],
      },
    });
    expect(created.body).toMatchObject({
      client_id: "chosen-id",
      client_secret: "chosen-secret-123",
      scope: "offline_access offline openid",
      grant_types: [],
      response_types: [],
    });
    const duplicate = await service.admin("POST", "/admin/clients", {
      json: { client_id: "chosen-id", redirect_uris: [redirectUri] },
    });
    expect(duplicate.status).toBe(409);
  });

  it("accepts custom-scheme redirect URIs of apps on devices", async () => {
    const created = await service.admin("POST", "/admin/clients", {
      json: {
        redirect_uris: ["com.example.app:/oauth2/callback", "http://127.0.0.1/callback"],
        token_endpoint_auth_method: "none",
      },
    });
    expect(created.status).toBe(201);
  });

  it("gives public clients no secret", async () => {
    const created = await service.admin("POST", "/admin/clients", {
      json: { redirect_uris: [redirectUri], token_endpoint_auth_method: "none" },
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("client_secret");
    expect(storedSecretHash((created.body as Client).client_id)).toBeNull();
  });

  it("accepts private_key_jwt clients with a key set", async () => {
    const { publicKey } = await generateKeyPair("ES256");
    const created = await service.admin("POST", "/admin/clients", {
      json: {
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: "private_key_jwt",
        token_endpoint_auth_signing_alg: "ES256",
        jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", use: "sig", alg: "ES256" }] },
        scope: "api",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("client_secret");
  });

  it("refuses invalid metadata with Hydra's errors", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ redirect_uris: ["http://127.0.0.1/cb#frag"] }, "invalid_redirect_uri", /fragments/],
      [{ redirect_uris: ["not a url"] }, "invalid_redirect_uri", /Unable to parse/],
      [
        {
          redirect_uris: [redirectUri],
          post_logout_redirect_uris: ["https://elsewhere.example.com/"],
        },
        "invalid_client_metadata",
        /post_logout_redirect_uri/,
      ],
      [{ client_secret: "short" }, "invalid_client_metadata", /at least 6 characters/],
      [{ token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata", /jwks/],
      [
        { allowed_cors_origins: ["https://x.example.com/path"] },
        "invalid_client_metadata",
        /empty path/,
      ],
      [{ grant_types: ["password"] }, "invalid_client_metadata", /grant_types/],
    ];
    for (const [body, error, description] of cases) {
      const answer = await service.admin("POST", "/admin/clients", { json: body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ error });
      expect((answer.body as { error_description: string }).error_description).toMatch(description);
    }
    const notJson = await fetch(`${service.adminUrl}/admin/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    const typed = await service.admin("POST", "/admin/clients", { json: { client_name: 7 } });
    expect(typed.status).toBe(400);
  });
});

describe("listing clients", () => {
  it("pages with page_size and the Link header, and filters by name and owner", async () => {
    for (const name of ["list-a", "list-b", "list-c"]) {
      await registerClient(service, {
        client_name: name,
        owner: "listing",
        redirect_uris: [redirectUri],
      });
    }
    const firstPage = await service.admin("GET", "/admin/clients?owner=listing&page_size=2");
    expect(firstPage.status).toBe(200);
    expect(firstPage.body as Client[]).toHaveLength(2);
    expect((firstPage.body as Client[]).some((c) => "client_secret" in c)).toBe(false);
    const link = firstPage.headers.get("link") ?? "";
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    const secondPage = await service.admin("GET", next ?? "");
    expect(secondPage.body as Client[]).toHaveLength(1);
    expect(secondPage.headers.get("link")).not.toContain('rel="next"');

    const byName = await service.admin("GET", "/admin/clients?client_name=list-b");
    expect((byName.body as Client[]).map((c) => c.client_name)).toEqual(["list-b"]);

    const badToken = await service.admin("GET", "/admin/clients?page_token=garbage");
    expect(badToken.status).toBe(400);
  });
});

describe("updating clients", () => {
  it("PUT replaces the client; without a secret the old one keeps working", async () => {
    const client = await registerClient(service, {
      client_name: "before",
      grant_types: ["client_credentials"],
      scope: "api",
    });
    const replaced = await service.admin("PUT", `/admin/clients/${client.client_id}`, {
      json: { client_name: "after", grant_types: ["client_credentials"], scope: "api other" },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ client_name: "after", scope: "api other" });
    expect(replaced.body).not.toHaveProperty("client_secret");
    expect(await clientCredentialsStatus(client.client_id, client.client_secret ?? "")).toBe(200);

    const newSecret = await service.admin("PUT", `/admin/clients/${client.client_id}`, {
      json: {
        client_name: "after",
        grant_types: ["client_credentials"],
        client_secret: "brand-new-secret",
      },
    });
    expect(newSecret.body).toMatchObject({ client_secret: "brand-new-secret" });
    expect(await clientCredentialsStatus(client.client_id, client.client_secret ?? "")).toBe(401);
    expect(await clientCredentialsStatus(client.client_id, "brand-new-secret")).toBe(200);

    const missing = await service.admin("PUT", "/admin/clients/nope", { json: {} });
    expect(missing.status).toBe(404);
  });

  it("PATCH applies a JSON Patch", async () => {
    const client = await registerClient(service, {
      client_name: "patch-me",
      redirect_uris: [redirectUri],
    });
    const patched = await service.admin("PATCH", `/admin/clients/${client.client_id}`, {
      json: [
        { op: "replace", path: "/client_name", value: "patched" },
        { op: "add", path: "/redirect_uris/-", value: "http://127.0.0.1:5555/second" },
        { op: "add", path: "/metadata/flag", value: true },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      client_name: "patched",
      redirect_uris: [redirectUri, "http://127.0.0.1:5555/second"],
      metadata: { flag: true },
    });

    const idChange = await service.admin("PATCH", `/admin/clients/${client.client_id}`, {
      json: [{ op: "replace", path: "/client_id", value: "other" }],
    });
    expect(idChange.status).toBe(400);
    const badOp = await service.admin("PATCH", `/admin/clients/${client.client_id}`, {
      json: [{ op: "replace", path: "/does_not_exist/x", value: 1 }],
    });
    expect(badOp.status).toBe(400);
    const missing = await service.admin("PATCH", "/admin/clients/nope", { json: [] });
    expect(missing.status).toBe(404);
  });

  it("PUT lifespans sets per-grant token lifetimes", async () => {
    const client = await registerClient(service, {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "client_credentials"],
      scope: "openid api",
    });
    const set = await service.admin("PUT", `/admin/clients/${client.client_id}/lifespans`, {
      json: {
        authorization_code_grant_access_token_lifespan: "30m",
        client_credentials_grant_access_token_lifespan: "90s",
      },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      authorization_code_grant_access_token_lifespan: "30m0s",
      client_credentials_grant_access_token_lifespan: "1m30s",
      refresh_token_grant_access_token_lifespan: null,
    });

    const machine = await tokenRequest(
      service,
      { grant_type: "client_credentials", scope: "api" },
      { id: client.client_id, secret: client.client_secret ?? "" },
    );
    expect(machine.body.expires_in).toBe(90);
    const { tokens } = await signIn(
      service,
      service.browser(),
      await relyingParty(service, client),
      {
        scope: "openid",
      },
    );
    expect(tokens.expires_in).toBe(1800);

    const bad = await service.admin("PUT", `/admin/clients/${client.client_id}/lifespans`, {
      json: { implicit_grant_id_token_lifespan: "soon" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("deleting clients", () => {
  it("answers 204, then 404, and the client's tokens stop working", async () => {
    const client = await registerClient(service, {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      scope: "openid",
    });
    const { tokens } = await signIn(
      service,
      service.browser(),
      await relyingParty(service, client),
      {
        scope: "openid",
      },
    );
    expect((await service.admin("DELETE", `/admin/clients/${client.client_id}`)).status).toBe(204);
    expect((await service.admin("GET", `/admin/clients/${client.client_id}`)).status).toBe(404);
    expect((await service.admin("DELETE", `/admin/clients/${client.client_id}`)).status).toBe(404);
    expect(await introspect(service, tokens.access_token)).toEqual({ active: false });
  });
});
