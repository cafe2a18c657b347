import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
let identityId: string;
let token: string;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_SESSION_TOKENIZER_TEMPLATES: '{"jwt":{}}' });
  ({ identityId, token } = await registerNative(ts, "bad-input@example.com"));
});
afterAll(async () => {
  await ts.stop();
});

// Bodies a careless or hostile client sends: none, the wrong JSON types, broken JSON, odd shapes.
const bodies = [
  undefined,
  "",
  "null",
  "[]",
  '"text"',
  "123",
  "{",
  "{}",
  '{"traits":null}',
  '{"traits":[]}',
  '{"traits":{"email":42}}',
  '{"identities":{}}',
  '{"identities":[null]}',
  '{"identities":[{"create":"x"}]}',
  '{"identities":[{"patch_id":"nope"}]}',
  '{"credentials":{"password":{"config":{"hashed_password":7}}}}',
  '{"credentials":{"password":null}}',
  '{"verifiable_addresses":"x","traits":{"email":"a@example.com"}}',
  '[{"op":"add"}]',
  '[{"op":"add","path":"traits"}]',
  '[{"op":"add","path":"/traits/email"}]',
  '[{"op":"replace","path":"/verifiable_addresses/9/verified","value":true}]',
  '[{"op":"add","path":"/credentials/nope","value":{}}]',
  '[{"op":"add","path":"/credentials/totp","value":"x"}]',
  '[{"op":"replace","path":"/traits","value":"x"}]',
  '[{"op":"remove","path":""}]',
  '[{"op":"add","path":"/schema_id","value":"other"}]',
  '[{"op":"add","path":"/verifiable_addresses","value":[{"value":1}]}]',
  '[{"op":"add","path":"/metadata_public/a/0/b","value":1}]',
  "[1]",
  JSON.stringify({ deep: JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`) as unknown }),
];

function expectClientError(status: number, body: unknown, label: string): void {
  expect(status, label).toBeGreaterThanOrEqual(400);
  expect(status, label).toBeLessThan(500);
  expect(body, label).toMatchObject({ error: { code: status } });
}

describe("the new endpoints answer bad input with herodot 4xx, never a 500", () => {
  it("admin identity writes: POST, PUT, PATCH (one and batch)", async () => {
    const targets: [string, string][] = [
      ["POST", "/admin/identities"],
      ["PATCH", "/admin/identities"],
      ["PUT", `/admin/identities/${identityId}`],
      ["PATCH", `/admin/identities/${identityId}`],
    ];
    for (const [method, path] of targets) {
      for (const body of bodies) {
        const response = await call(`${ts.adminUrl}${path}`, {
          method,
          headers: { "content-type": "application/json" },
          ...(body === undefined ? {} : { body }),
        });
        const label = `${method} ${path} ${String(body)}`;
        if (response.status < 300) continue;
        expectClientError(response.status, response.body, label);
      }
    }
    // The identity is still whole (a lenient PUT may have changed its traits on the way).
    const after = await call(`${ts.adminUrl}/admin/identities/${identityId}`);
    expect(after.status).toBe(200);
  });

  it("admin identity paths and queries", async () => {
    const urls = [
      "/admin/identities/not-a-uuid",
      "/admin/identities?ids=1&ids=2",
      "/admin/identities?page_token=%00",
      "/admin/identities?page_size=-5",
      "/admin/identities?page_size=99999999999999999999",
      "/admin/identities?page=-1&per_page=abc",
      "/admin/identities?include_credential=",
      "/admin/identities?credentials_identifier=%25%25%25",
      `/admin/identities/${identityId}?include_credential=nope`,
    ];
    for (const url of urls) {
      const response = await call(`${ts.adminUrl}${url}`);
      if (response.status < 300) continue;
      expectClientError(response.status, response.body, url);
    }
    for (const type of ["nope", "password", "%20", "oidc"]) {
      const response = await call(
        `${ts.adminUrl}/admin/identities/${identityId}/credentials/${type}?identifier=x`,
        { method: "DELETE" },
      );
      expectClientError(response.status, response.body, type);
    }
    const garbled = await call(`${ts.adminUrl}/admin/identities/garbled/credentials/totp`, {
      method: "DELETE",
    });
    expect(garbled.status).toBe(404);
  });

  it("token exchange and tokenize_as", async () => {
    for (const query of [
      "?init_code=&return_to_code=",
      "?init_code=a&init_code=b&return_to_code=c",
      `?init_code=${"x".repeat(5000)}&return_to_code=y`,
    ]) {
      const response = await call(`${ts.publicUrl}/sessions/token-exchange${query}`);
      expectClientError(response.status, response.body, query);
    }
    for (const template of ["%00", "__proto__", "constructor", "a".repeat(3000)]) {
      const response = await call(`${ts.publicUrl}/sessions/whoami?tokenize_as=${template}`, {
        headers: { "x-session-token": token },
      });
      expectClientError(response.status, response.body, template);
    }
  });
});
