// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { identityErrors } from "../../test/identity-errors.ts";
import { stubIdentity } from "../../test/identity-stub.ts";
import { loader } from "./error.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

function load(path: string) {
  const url = new URL(path, "http://localhost:3000");
  return loader({
    request: new Request(url, { headers: { cookie: "ory_kratos_session=s" } }),
    params: { lang: "es" },
    context: new RouterContextProvider(),
    url,
    pattern: "/:lang/error",
  });
}

/** GET /self-service/errors as the identity service answers it for a stored CSRF failure. */
const storedCsrfFailure = {
  id: "6d0f2c4e-1b6a-4f3e-9d2a-2f5e8c1a7b90",
  error: (identityErrors.csrfViolation.body as { error: unknown }).error,
  created_at: "2026-03-02T10:00:00.000Z",
  updated_at: "2026-03-02T10:00:00.000Z",
};

describe("the error page loader", () => {
  it("shows an OAuth2 problem without asking the identity service", async () => {
    const { calls } = stubIdentity({});
    await expect(load("/es/error?oauth2=expired")).resolves.toMatchObject({
      data: { problem: "expired" },
    });
    expect(calls).toEqual([]);
  });

  it("goes back to the start for an unknown OAuth2 problem and no id", async () => {
    stubIdentity({});
    const result = await load("/es/error?oauth2=bogus");
    expect(result instanceof Response && result.headers.get("location")).toBe("/es");
  });

  it.each([403, 404, 410])("goes back to the start when the error answers %i", async (status) => {
    const answer =
      status === 404
        ? identityErrors.notFound
        : { status, body: { error: { code: status, status: "Gone", message: "gone" } } };
    stubIdentity({ "GET /self-service/errors": answer });
    const result = await load("/es/error?id=e1");
    expect(result instanceof Response && result.status).toBe(302);
    expect(result instanceof Response && result.headers.get("location")).toBe("/es");
  });

  it("asks for the stored error by id, with the browser's cookies, and shows the page", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/errors": { status: 200, body: storedCsrfFailure },
    });
    const result = await load(`/es/error?id=${storedCsrfFailure.id}`);
    expect(calls[0]?.url.searchParams.get("id")).toBe(storedCsrfFailure.id);
    expect(calls[0]?.headers.get("cookie")).toBe("ory_kratos_session=s");
    expect(result).not.toBeInstanceOf(Response);
  });

  it("shows the page for any other failure of the identity service too", async () => {
    stubIdentity({ "GET /self-service/errors": identityErrors.serverError });
    expect(await load("/es/error?id=e1")).not.toBeInstanceOf(Response);
  });

  it("needs an id", async () => {
    const { calls } = stubIdentity({});
    const result = await load("/es/error");
    expect(result instanceof Response && result.headers.get("location")).toBe("/es");
    expect(calls).toHaveLength(0);
  });
});
