import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Configuration, IdentityApi } from "@ory/client-fetch";
import { call, specCheckedFetch } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

describe("identity schemas", () => {
  it("lists the schema with paging headers", async () => {
    const schemas = await new IdentityApi(
      new Configuration({ basePath: ts.publicUrl, fetchApi: specCheckedFetch() }),
    ).listIdentitySchemasRaw({});
    const body = await schemas.value();
    expect(body.map((s) => s.id)).toEqual(["default"]);
    expect(body[0]?.schema).toMatchObject({ title: "Person" });
    expect(schemas.raw.headers.get("x-total-count")).toBe("1");
  });

  it("serves the schema under schema_url (base64url id) and under its plain id", async () => {
    const { identityId } = await registerNative(ts, "schema@example.com");
    const identity = await ts.admin().getIdentity({ id: identityId });
    // schema_url names the public base URL (the portal's proxy); ask the listener itself.
    const path = new URL(identity.schema_url).pathname.replace(/^\/api\/kratos/, "");
    expect(path).toBe("/schemas/ZGVmYXVsdA");
    const byUrl = await call(`${ts.publicUrl}${path}`);
    expect(byUrl.status).toBe(200);
    expect(byUrl.body).toMatchObject({ title: "Person", type: "object" });
    const byId = await call(`${ts.publicUrl}/schemas/default`);
    expect(byId.body).toEqual(byUrl.body);
  });

  it("answers 404 with Kratos' reason for an unknown schema", async () => {
    const response = await call(`${ts.publicUrl}/schemas/other`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: {
        code: 404,
        status: "Not Found",
        reason: "Identity schema `other` could not be found.",
        message: "The requested resource could not be found",
      },
    });
  });
});
