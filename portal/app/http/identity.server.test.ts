// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { forwardedHeaders } from "./identity.server.ts";
import { createLoadContext } from "./request-context.ts";

describe("forwardedHeaders", () => {
  it("passes on the browser's cookie, user agent, address and the request's correlation id", () => {
    const request = new Request("http://localhost:3000/en/login", {
      headers: { cookie: "csrf=1; ory_kratos_session=s", "user-agent": "Firefox/140" },
    });
    const context = createLoadContext({
      nonce: "n",
      forwardedFor: "198.51.100.7",
      correlationId: "c-42",
    });

    expect(forwardedHeaders(request, context)).toEqual({
      Cookie: "csrf=1; ory_kratos_session=s",
      "User-Agent": "Firefox/140",
      "X-Forwarded-For": "198.51.100.7",
      "x-correlation-id": "c-42",
    });
  });

  it("keeps a well-formed incoming correlation id and mints one otherwise", () => {
    const context = new RouterContextProvider();
    const kept = forwardedHeaders(
      new Request("http://localhost/", { headers: { "x-correlation-id": "abc-123" } }),
      context,
    );
    const minted = forwardedHeaders(
      new Request("http://localhost/", {
        headers: { "x-correlation-id": "not a valid id, has spaces" },
      }),
      context,
    );
    expect(kept["x-correlation-id"]).toBe("abc-123");
    expect(minted["x-correlation-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(minted).not.toHaveProperty("Cookie");
  });

  it("passes on a well-formed W3C traceparent and tracestate, and nothing malformed", () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const context = new RouterContextProvider();
    const traced = forwardedHeaders(
      new Request("http://localhost/", { headers: { traceparent, tracestate: "vendor=abc" } }),
      context,
    );
    expect(traced).toMatchObject({ traceparent, tracestate: "vendor=abc" });
    const garbled = forwardedHeaders(
      new Request("http://localhost/", {
        headers: { traceparent: "00-not-a-trace-01", tracestate: "vendor=abc" },
      }),
      context,
    );
    expect(garbled).not.toHaveProperty("traceparent");
    expect(garbled).not.toHaveProperty("tracestate");
  });

  it("sends the page's locale as Accept-Language, so the courier writes in that language", () => {
    const request = new Request("http://localhost/es/recovery", {
      headers: { "accept-language": "en-US,en;q=0.9" },
    });
    expect(forwardedHeaders(request, new RouterContextProvider(), "es")).toMatchObject({
      "Accept-Language": "es",
    });
    expect(forwardedHeaders(request, new RouterContextProvider())).not.toHaveProperty(
      "Accept-Language",
    );
  });

  it("passes on the browser's fingerprint from the header or the cookie, if it looks like one", () => {
    const fromHeader = new Request("http://localhost/en/login", {
      headers: { "x-session-entropy": "fp-abc123", cookie: "x-session-entropy=other" },
    });
    const fromCookie = new Request("http://localhost/en/login", {
      headers: { cookie: "a=1; x-session-entropy=fp-cookie" },
    });
    const garbled = new Request("http://localhost/en/login", {
      headers: { "x-session-entropy": "<script>" },
    });
    const context = new RouterContextProvider();
    expect(forwardedHeaders(fromHeader, context)["x-session-entropy"]).toBe("fp-abc123");
    expect(forwardedHeaders(fromCookie, context)["x-session-entropy"]).toBe("fp-cookie");
    expect(forwardedHeaders(garbled, context)).not.toHaveProperty("x-session-entropy");
  });
});
