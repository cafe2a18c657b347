import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import { registerClient, type RegisteredClient } from "./test-support/portal-role.ts";

// Hydra's serve.public.cors on the OAuth2 public listener (IDENTITY_OAUTH2_CORS_*), against the
// real service: off by default with no CORS header anywhere (oidc-provider's own CORS included),
// on with the configured origins on every public route, plus a client's allowed_cors_origins on
// its token requests.

const allowed = "https://spa.example.com";
const clientOrigin = "https://client-only.example.com";
const refused = "https://evil.example.net";

let on: OAuth2TestService;
let off: OAuth2TestService;
let onClient: RegisteredClient;
let offClient: RegisteredClient;

const clientBody = {
  grant_types: ["client_credentials"],
  scope: "api",
  allowed_cors_origins: [clientOrigin],
};

beforeAll(async () => {
  [on, off] = await Promise.all([
    startOAuth2TestService({
      IDENTITY_OAUTH2_CORS_ENABLED: "true",
      IDENTITY_OAUTH2_CORS_ALLOWED_ORIGINS: allowed,
      IDENTITY_OAUTH2_CORS_MAX_AGE: "300",
    }),
    startOAuth2TestService(),
  ]);
  [onClient, offClient] = await Promise.all([
    registerClient(on, clientBody),
    registerClient(off, clientBody),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([on.stop(), off.stop()]);
});

// Every route of the public listener: discovery, keys, authorization, token, revocation,
// userinfo, logout and health.
const publicRoutes: { method: string; path: string }[] = [
  { method: "GET", path: "/.well-known/openid-configuration" },
  { method: "GET", path: "/.well-known/jwks.json" },
  { method: "GET", path: "/oauth2/auth?client_id=nobody&response_type=code" },
  { method: "POST", path: "/oauth2/token" },
  { method: "POST", path: "/oauth2/revoke" },
  { method: "GET", path: "/userinfo" },
  { method: "POST", path: "/userinfo" },
  { method: "GET", path: "/oauth2/sessions/logout" },
  { method: "GET", path: "/health/alive" },
  { method: "GET", path: "/health/ready" },
];

/** Routes under Hydra's per-client CORS middleware (x/oauth2cors, oauth2/handler.go). */
function clientCorsRoute(path: string): boolean {
  const pathname = new URL(path, "http://x").pathname;
  return (
    ["/oauth2/token", "/oauth2/revoke", "/userinfo"].includes(pathname) ||
    pathname.startsWith("/.well-known/")
  );
}

function accessControlHeaders(headers: Headers): string[] {
  return [...headers.keys()].filter((name) => name.startsWith("access-control-"));
}

function preflight(base: string, path: string, origin: string, method: string) {
  return fetch(`${base}${path}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "authorization,content-type",
    },
  });
}

function actual(base: string, method: string, path: string, origin: string) {
  return fetch(`${base}${path}`, {
    method,
    redirect: "manual",
    headers: {
      origin,
      authorization: "Bearer not-a-token",
      ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: method === "POST" ? "token=nope" : undefined,
  });
}

function clientCredentials(base: string, client: RegisteredClient, origin: string) {
  const basic = Buffer.from(`${client.client_id}:${client.client_secret ?? ""}`).toString("base64");
  return fetch(`${base}/oauth2/token`, {
    method: "POST",
    headers: {
      origin,
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${basic}`,
    },
    body: "grant_type=client_credentials",
  });
}

describe("CORS on the OAuth2 public listener, on", () => {
  it("answers preflights from the allowed origin on every route, before anything else", async () => {
    for (const { method, path } of publicRoutes) {
      const what = `${method} ${path}`;
      const response = await preflight(on.issuer, path, allowed, method);
      expect(response.status, what).toBe(204);
      expect(await response.text(), what).toBe("");
      expect(response.headers.get("access-control-allow-origin"), what).toBe(allowed);
      expect(response.headers.get("access-control-allow-methods"), what).toBe(method);
      expect(response.headers.get("access-control-allow-headers"), what).toBe(
        "authorization,content-type",
      );
      expect(response.headers.get("access-control-allow-credentials"), what).toBe("true");
      expect(response.headers.get("access-control-max-age"), what).toBe("300");
      expect(response.headers.getSetCookie(), what).toEqual([]);
    }
  }, 60_000);

  it("answers preflights from other origins without CORS headers on the routes without client CORS", async () => {
    for (const { method, path } of publicRoutes.filter((route) => !clientCorsRoute(route.path))) {
      for (const origin of [refused, clientOrigin]) {
        const what = `${method} ${path} from ${origin}`;
        const response = await preflight(on.issuer, path, origin, method);
        expect(response.status, what).toBe(204);
        expect(accessControlHeaders(response.headers), what).toEqual([]);
      }
    }
  }, 60_000);

  it("lets any origin's preflight through on Hydra's per-client CORS routes (token, revocation, userinfo, discovery, keys): the actual request decides", async () => {
    const clientRoutes = publicRoutes.filter((route) => clientCorsRoute(route.path));
    expect(clientRoutes.length).toBeGreaterThanOrEqual(5);
    for (const { method, path } of clientRoutes) {
      for (const origin of [refused, clientOrigin]) {
        const what = `${method} ${path} from ${origin}`;
        const response = await preflight(on.issuer, path, origin, method);
        expect(response.status, what).toBe(204);
        expect(await response.text(), what).toBe("");
        expect(response.headers.get("access-control-allow-origin"), what).toBe(origin);
        expect(response.headers.get("access-control-allow-headers"), what).toBe(
          "authorization,content-type",
        );
        expect(response.headers.getSetCookie(), what).toEqual([]);
      }
      // The actual request of an origin nobody lists still gets no CORS headers.
      const answer = await actual(on.issuer, method, path, refused);
      await answer.body?.cancel();
      expect(accessControlHeaders(answer.headers), `${method} ${path}`).toEqual([]);
    }
  }, 60_000);

  it("marks answers of every route for the allowed origin with Hydra's exposed headers", async () => {
    for (const { method, path } of publicRoutes) {
      const what = `${method} ${path}`;
      const response = await actual(on.issuer, method, path, allowed);
      await response.body?.cancel();
      expect(response.status, what).toBeLessThan(500);
      expect(response.headers.get("access-control-allow-origin"), what).toBe(allowed);
      expect(response.headers.get("access-control-allow-credentials"), what).toBe("true");
      expect(response.headers.get("access-control-expose-headers"), what).toBe(
        "Cache-Control, Expires, Last-Modified, Pragma, Content-Length, Content-Language, Content-Type",
      );
      expect(response.headers.get("vary"), what).toContain("Origin");
    }
  }, 60_000);

  it("never reflects a refused origin on any route (oidc-provider's open CORS is gone)", async () => {
    for (const { method, path } of publicRoutes) {
      const what = `${method} ${path}`;
      const response = await actual(on.issuer, method, path, refused);
      await response.body?.cancel();
      expect(response.status, what).toBeLessThan(500);
      expect(accessControlHeaders(response.headers), what).toEqual([]);
    }
  }, 60_000);

  it("allows a client's allowed_cors_origins on its own token request, as Hydra does", async () => {
    const mine = await clientCredentials(on.issuer, onClient, clientOrigin);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("access-control-allow-origin")).toBe(clientOrigin);
    expect(mine.headers.get("access-control-allow-credentials")).toBe("true");
    // Another origin is not refused (Hydra answers the request), it just cannot read it.
    const other = await clientCredentials(on.issuer, onClient, refused);
    expect(other.status).toBe(200);
    expect(accessControlHeaders(other.headers)).toEqual([]);
    // The client's origin is the client's alone: discovery does not open to it.
    const discovery = await actual(on.issuer, "GET", "/.well-known/jwks.json", clientOrigin);
    await discovery.body?.cancel();
    expect(accessControlHeaders(discovery.headers)).toEqual([]);
  });
});

describe("CORS on the OAuth2 public listener, off (the default, as in Hydra)", () => {
  it("sends no CORS header on any route, whatever the origin", async () => {
    for (const { method, path } of publicRoutes) {
      for (const origin of [allowed, refused]) {
        const what = `${method} ${path} from ${origin}`;
        const pre = await preflight(off.issuer, path, origin, method);
        await pre.body?.cancel();
        expect(accessControlHeaders(pre.headers), what).toEqual([]);
        const response = await actual(off.issuer, method, path, origin);
        await response.body?.cancel();
        expect(response.status, what).toBeLessThan(500);
        expect(accessControlHeaders(response.headers), what).toEqual([]);
      }
    }
  }, 60_000);

  it("ignores a client's allowed_cors_origins (Hydra needs CORS on for them)", async () => {
    const response = await clientCredentials(off.issuer, offClient, clientOrigin);
    expect(response.status).toBe(200);
    expect(accessControlHeaders(response.headers)).toEqual([]);
  });
});
