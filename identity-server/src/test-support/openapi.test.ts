import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assertMatchesSpec } from "./openapi.ts";

const flow = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../vendor/ory/flows/${name}`, import.meta.url), "utf8"));

describe("the OpenAPI check the integration tests rely on", () => {
  it("accepts real Kratos JSON", () => {
    expect(() =>
      assertMatchesSpec(
        "GET",
        "/self-service/login/flows",
        200,
        flow("elements.login.1fa.password.initial.json"),
      ),
    ).not.toThrow();
    expect(() =>
      assertMatchesSpec(
        "GET",
        "/admin/identities/a251ebc2-880c-4f76-a8f3-38e6940eab0e",
        200,
        flow("kratos.fixture.identity.with-password-credentials.json"),
      ),
    ).not.toThrow();
    expect(() =>
      assertMatchesSpec(
        "GET",
        "/admin/identities/x",
        404,
        flow("kratos.snapshot.error.not-found.json"),
      ),
    ).not.toThrow();
  });

  it("rejects bodies that break the contract", () => {
    expect(() => assertMatchesSpec("GET", "/sessions/whoami", 200, { active: true })).toThrow(/id/);
    expect(() =>
      assertMatchesSpec("GET", "/sessions/whoami", 401, { error: { code: 401 } }),
    ).toThrow(/message/);
    expect(() =>
      assertMatchesSpec("POST", "/self-service/login", 400, { id: "x", ui: { nodes: [] } }),
    ).toThrow();
  });
});
