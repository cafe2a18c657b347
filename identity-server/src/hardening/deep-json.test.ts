import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { rawRequest } from "./raw-http.ts";

// Regression found by the soak run: `{"a":[[[[…5,000 levels…]]]]}` parsed, then overflowed the
// stack when the flow-body decoder stringified it (a 500). Bodies nested deeper than 512 levels
// are now refused at the parse, like Go's "exceeded max depth", on every listener.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

const nested = (depth: number) => `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
const port = (url: string) => Number(new URL(url).port);
const json: [string, string][] = [
  ["Content-Type", "application/json"],
  ["Accept", "application/json"],
];

describe("deeply nested JSON bodies", () => {
  it("are a 400 in Kratos' shape on self-service and admin routes", async () => {
    const logout = await rawRequest(port(ts.publicUrl), {
      method: "DELETE",
      target: "/self-service/logout/api",
      headers: json,
      body: nested(5000),
    });
    expect(logout.status).toBe(400);
    expect(JSON.parse(logout.body)).toMatchObject({
      error: { code: 400, message: "exceeded max depth" },
    });
    const create = await rawRequest(port(ts.adminUrl), {
      method: "POST",
      target: "/admin/identities",
      headers: json,
      body: nested(5000),
    });
    expect(create.status).toBe(400);
    expect(JSON.parse(create.body)).toMatchObject({ error: { code: 400 } });
  });

  it("are a 400 in Hydra's shape on the OAuth2 admin API", async () => {
    const response = await rawRequest(port(ts.server.oauth2?.adminUrl ?? ""), {
      method: "POST",
      target: "/admin/clients",
      headers: json,
      body: nested(5000),
    });
    expect(response.status).toBe(400);
    const body = JSON.parse(response.body) as { error: string; error_description: string };
    expect(body.error_description).toContain("exceeded max depth");
  });

  it("still decodes a body nested within the limit", async () => {
    const logout = await rawRequest(port(ts.publicUrl), {
      method: "DELETE",
      target: "/self-service/logout/api",
      headers: json,
      body: nested(500),
    });
    // The session token is missing, not the body undecodable.
    expect(logout.status).toBe(403);
  });
});
