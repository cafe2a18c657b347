import { Configuration, MetadataApi } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertMatchesHydraSpec } from "../oauth2/test-support/hydra-openapi.ts";
import { specCheckedFetch } from "../test-support/http-client.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { oryVersion } from "./version-routes.ts";

// What Ory's SDKs call on every listener (MetadataApi.getVersion, Kratos' and Hydra's `version`
// model), and Kratos' admin-side schema routes (schema/handler.go: 307 to the public route).

const publicBaseUrl = "https://id.example.test/api/kratos";
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_PUBLIC_BASE_URL: publicBaseUrl });
});
afterAll(() => ts.stop());

function oauth2() {
  const oauth2 = ts.server.oauth2;
  if (!oauth2) throw new Error("the OAuth2 service is not running");
  return oauth2;
}

/** Hydra's spec-checked fetch: every JSON answer must match the vendored Hydra spec. */
const hydraChecked: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request, { redirect: "manual" });
  const body: unknown = await response.clone().json();
  assertMatchesHydraSpec(request.method, new URL(request.url).pathname, response.status, body);
  return response;
};

describe("GET /version", () => {
  it("answers the SDKs' getVersion on the Kratos public and admin listeners", async () => {
    for (const basePath of [ts.publicUrl, ts.adminUrl]) {
      const api = new MetadataApi(new Configuration({ basePath, fetchApi: specCheckedFetch() }));
      expect(await api.getVersion()).toEqual({ version: oryVersion });
    }
    // Kratos exempts /version from its anti-CSRF middleware (cmd/daemon/serve.go): no cookie.
    const publicVersion = await fetch(`${ts.publicUrl}/version`);
    expect(publicVersion.status).toBe(200);
    expect(publicVersion.headers.getSetCookie()).toEqual([]);
    // Kratos' admin router answers its routes under /admin too.
    const prefixed = await fetch(`${ts.adminUrl}/admin/version`);
    expect(prefixed.status).toBe(200);
    expect(await prefixed.json()).toEqual({ version: oryVersion });
  });

  it("answers the SDKs' getVersion on both OAuth2 listeners", async () => {
    for (const basePath of [oauth2().issuer, oauth2().adminUrl]) {
      const api = new MetadataApi(new Configuration({ basePath, fetchApi: hydraChecked }));
      expect(await api.getVersion()).toEqual({ version: oryVersion });
    }
    const prefixed = await fetch(`${oauth2().adminUrl}/admin/version`);
    expect(await prefixed.json()).toEqual({ version: oryVersion });
  });
});

describe("identity schemas on the admin listener", () => {
  it("redirect 307 to the public route, with or without /admin, keeping the query", async () => {
    for (const [path, target] of [
      ["/admin/schemas", "/schemas"],
      ["/admin/schemas?page=1&per_page=2", "/schemas?page=1&per_page=2"],
      ["/admin/schemas/default", "/schemas/default"],
      ["/schemas", "/schemas"],
      ["/schemas/default", "/schemas/default"],
    ] as const) {
      const answer = await fetch(`${ts.adminUrl}${path}`, { redirect: "manual" });
      expect(answer.status, path).toBe(307);
      expect(answer.headers.get("location"), path).toBe(`${publicBaseUrl}${target}`);
    }
    // The public route the redirect names is the one that lists them.
    const listed = await fetch(`${ts.publicUrl}/schemas`);
    expect(listed.status).toBe(200);
  });
});
