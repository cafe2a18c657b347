import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenOf, strongPassword } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { routesListeningOn } from "./route-registry.ts";

// Kratos' serve.public.cors on the identity public listener, against the real server: every
// self-service and session route, preflight and credentialed request, from an allowed and from
// a refused origin.

const allowed = "https://ui.example.com";
const wildcardAllowed = "https://pr-42.preview.example.org";
const refused = "https://evil.example.net";

let ts: TestServer;
let off: TestServer;
let sessionCookie: string;

beforeAll(async () => {
  [ts, off] = await Promise.all([
    startTestServer({
      IDENTITY_CORS_ENABLED: "true",
      IDENTITY_CORS_ALLOWED_ORIGINS: `${allowed},https://*.preview.example.org`,
      IDENTITY_CORS_MAX_AGE: "600",
    }),
    startTestServer(),
  ]);
  // A signed-in browser: its cookies make the requests below credentialed.
  const { api, jar } = ts.browser();
  const flow = await api.createBrowserRegistrationFlow();
  await api.updateRegistrationFlow({
    flow: flow.id,
    updateRegistrationFlowBody: {
      method: "password",
      csrf_token: csrfTokenOf(flow),
      password: strongPassword,
      traits: { email: "cors@example.gov" },
    },
  });
  sessionCookie = jar.header() ?? "";
}, 60_000);

afterAll(async () => {
  await Promise.all([ts.stop(), off.stop()]);
});

/** Every self-service and session route of the running listener, its parameters filled in. */
function selfServiceAndSessionRoutes(base: string): { method: string; path: string }[] {
  const routes = routesListeningOn(Number(new URL(base).port)) ?? [];
  return routes
    .filter((r) => /^\/(self-service|sessions)(\/|$)/.test(r.url))
    .filter((r) => r.method !== "HEAD" && r.method !== "OPTIONS")
    .map((r) => ({
      method: r.method,
      path: r.url.replace(/:[^/]+/g, "00000000-0000-4000-8000-000000000000"),
    }));
}

function accessControlHeaders(headers: Headers): string[] {
  return [...headers.keys()].filter((name) => name.startsWith("access-control-"));
}

function preflight(base: string, path: string, origin: string, method: string, asked?: string) {
  return fetch(`${base}${path}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      ...(asked ? { "access-control-request-headers": asked } : {}),
    },
  });
}

function credentialed(base: string, method: string, path: string, origin: string) {
  const withBody = method === "POST" || method === "PUT" || method === "PATCH";
  return fetch(`${base}${path}`, {
    method,
    redirect: "manual",
    headers: {
      origin,
      cookie: sessionCookie,
      accept: "application/json",
      ...(withBody ? { "content-type": "application/json" } : {}),
    },
    body: withBody ? "{}" : undefined,
  });
}

describe("CORS on the identity public listener (IDENTITY_CORS_*)", () => {
  it("covers every self-service and session route", () => {
    const routes = selfServiceAndSessionRoutes(ts.publicUrl).map((r) => `${r.method} ${r.path}`);
    // The list comes from the listener; these show it is the real one.
    expect(routes).toContain("GET /sessions/whoami");
    expect(routes).toContain("POST /self-service/login");
    expect(routes).toContain("GET /self-service/settings/browser");
    expect(routes).toContain("DELETE /sessions/00000000-0000-4000-8000-000000000000");
    expect(routes.length).toBeGreaterThan(25);
  });

  it("answers preflights from an allowed origin on every route, before any flow or cookie", async () => {
    for (const { method, path } of selfServiceAndSessionRoutes(ts.publicUrl)) {
      for (const origin of [allowed, wildcardAllowed]) {
        const what = `${method} ${path} from ${origin}`;
        const response = await preflight(ts.publicUrl, path, origin, method, "content-type");
        expect(response.status, what).toBe(204);
        expect(await response.text(), what).toBe("");
        expect(response.headers.get("access-control-allow-origin"), what).toBe(origin);
        expect(response.headers.get("access-control-allow-methods"), what).toBe(method);
        expect(response.headers.get("access-control-allow-headers"), what).toBe("content-type");
        expect(response.headers.get("access-control-allow-credentials"), what).toBe("true");
        expect(response.headers.get("access-control-max-age"), what).toBe("600");
        expect(response.headers.get("vary"), what).toContain("Origin");
        // No flow was created, no CSRF cookie or session touched.
        expect(response.headers.getSetCookie(), what).toEqual([]);
      }
    }
  }, 60_000);

  it("answers preflights from a refused origin on every route with no CORS headers", async () => {
    for (const { method, path } of selfServiceAndSessionRoutes(ts.publicUrl)) {
      const what = `${method} ${path}`;
      const response = await preflight(ts.publicUrl, path, refused, method, "content-type");
      expect(response.status, what).toBe(204);
      expect(accessControlHeaders(response.headers), what).toEqual([]);
      expect(response.headers.getSetCookie(), what).toEqual([]);
    }
  }, 60_000);

  it("refuses preflights for a method or header the configuration does not allow", async () => {
    const trace = await preflight(ts.publicUrl, "/sessions/whoami", allowed, "TRACE");
    expect(trace.status).toBe(204);
    expect(accessControlHeaders(trace.headers)).toEqual([]);
    const header = await preflight(ts.publicUrl, "/sessions/whoami", allowed, "GET", "x-evil");
    expect(header.status).toBe(204);
    expect(accessControlHeaders(header.headers)).toEqual([]);
  });

  it("lets an allowed origin read credentialed answers of every route", async () => {
    for (const { method, path } of selfServiceAndSessionRoutes(ts.publicUrl)) {
      const what = `${method} ${path}`;
      const response = await credentialed(ts.publicUrl, method, path, allowed);
      await response.body?.cancel();
      expect(response.status, what).toBeLessThan(500);
      expect(response.headers.get("access-control-allow-origin"), what).toBe(allowed);
      expect(response.headers.get("access-control-allow-credentials"), what).toBe("true");
      expect(response.headers.get("access-control-expose-headers"), what).toBe(
        "Content-Type, Set-Cookie",
      );
      expect(response.headers.get("vary"), what).toContain("Origin");
    }
  }, 60_000);

  it("never reflects a refused origin on a credentialed answer of any route", async () => {
    for (const { method, path } of selfServiceAndSessionRoutes(ts.publicUrl)) {
      const what = `${method} ${path}`;
      const response = await credentialed(ts.publicUrl, method, path, refused);
      await response.body?.cancel();
      expect(response.status, what).toBeLessThan(500);
      expect(accessControlHeaders(response.headers), what).toEqual([]);
      expect(response.headers.get("vary"), what).toContain("Origin");
    }
  }, 60_000);

  it("serves the session itself to the allowed origin (what Ory Elements asks first)", async () => {
    const response = await credentialed(ts.publicUrl, "GET", "/sessions/whoami", allowed);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { active: boolean }).active).toBe(true);
    expect(response.headers.get("access-control-allow-origin")).toBe(allowed);
  });
});

describe("without IDENTITY_CORS_ENABLED (the default, as in Kratos)", () => {
  it("adds no CORS header and leaves OPTIONS to the routes (405)", async () => {
    for (const { method, path } of selfServiceAndSessionRoutes(off.publicUrl)) {
      const what = `${method} ${path}`;
      const pre = await preflight(off.publicUrl, path, allowed, method);
      await pre.body?.cancel();
      expect(pre.status, what).toBe(405);
      expect(accessControlHeaders(pre.headers), what).toEqual([]);
      const actual = await credentialed(off.publicUrl, method, path, allowed);
      await actual.body?.cancel();
      expect(accessControlHeaders(actual.headers), what).toEqual([]);
    }
  }, 60_000);
});
