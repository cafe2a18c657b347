// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../test/identity-stub.ts";
import { errorMessage, loader } from "./error.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

function load(path: string) {
  const url = new URL(path, "http://localhost:3000");
  return loader({
    request: new Request(url),
    params: { lang: "es" },
    context: new RouterContextProvider(),
    url,
    pattern: "/:lang/error",
  });
}

describe("the error page loader", () => {
  it.each([403, 404, 410])("goes back to the start when the error answers %i", async (status) => {
    stubIdentity({ "GET /self-service/errors": { status, body: { error: { code: status } } } });
    const result = await load("/es/error?id=e1");
    expect(result instanceof Response && result.headers.get("location")).toBe("/es");
  });

  it("shows the stored error's message", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/errors": {
        status: 200,
        body: { id: "e1", error: { code: 500, message: "The flow could not be completed." } },
      },
    });
    const result = await load("/es/error?id=e1");
    expect(calls[0]?.url.searchParams.get("id")).toBe("e1");
    if (result instanceof Response) throw new Error("expected data");
    expect(result.data).toEqual({ message: "The flow could not be completed." });
  });

  it("needs an id", async () => {
    const result = await load("/es/error");
    expect(result instanceof Response && result.headers.get("location")).toBe("/es");
  });
});

describe("errorMessage", () => {
  it("prefers the message, then the reason", () => {
    expect(errorMessage({ error: { message: "m", reason: "r" } })).toBe("m");
    expect(errorMessage({ error: { reason: "r" } })).toBe("r");
    expect(errorMessage({ nothing: true })).toBeUndefined();
  });
});
