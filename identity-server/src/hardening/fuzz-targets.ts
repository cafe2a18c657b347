import { readFileSync } from "node:fs";
import { routesListeningOn } from "../http/route-registry.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import type { TestServer } from "../test-support/test-server.ts";

/** The listeners of one identity server; each answers errors in its own documented shape. */
export type Listener =
  "kratos-public" | "kratos-admin" | "oauth2-public" | "oauth2-admin" | "mailbox";

export interface Route {
  listener: Listener;
  method: string;
  /** Path segments; `null` marks a path parameter. */
  segments: (string | null)[];
}

export interface FuzzTarget {
  ports: Record<Listener, number>;
  routes: Route[];
  /** Real ids (flows, identities, sessions, clients…) that path and query parameters reuse. */
  ids: string[];
  /** A valid session token, so some requests get past authentication. */
  sessionToken: string;
}

interface Spec {
  paths: Record<string, Record<string, unknown>>;
}

const httpMethods = ["get", "put", "post", "delete", "patch", "head", "options"];

function readSpec(name: string): Spec {
  const url = new URL(`../../../vendor/ory/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Spec;
}

function segmentsOf(template: string): (string | null)[] {
  return template
    .split("/")
    .slice(1)
    .map((segment) =>
      /^\{.+\}$/.test(segment) || segment.startsWith(":") || segment === "*" ? null : segment,
    );
}

function specRoutes(spec: Spec, listenerOf: (path: string) => Listener): Route[] {
  return Object.entries(spec.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => httpMethods.includes(method))
      .map((method) => ({
        listener: listenerOf(path),
        method: method.toUpperCase(),
        segments: segmentsOf(path),
      })),
  );
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function fastifyRoutes(listener: Listener, port: number): Route[] {
  const routes = routesListeningOn(port);
  if (!routes || routes.length === 0)
    throw new Error(`no recorded routes for ${listener} on ${port}`);
  return routes.map((route) => ({
    listener,
    method: route.method,
    segments: segmentsOf(route.url),
  }));
}

function unique(routes: Route[]): Route[] {
  const seen = new Map<string, Route>();
  for (const route of routes) {
    const key = `${route.listener} ${route.method} /${route.segments.map((s) => s ?? "{}").join("/")}`;
    if (!seen.has(key)) seen.set(key, route);
  }
  return [...seen.values()];
}

async function json(response: Response): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Every route of every listener: what the Fastify listeners recorded, the paths of the Kratos and
 * Hydra OpenAPI specs (so a documented route the server lacks is fuzzed too) and the endpoints the
 * OAuth2 discovery document names. Also creates the real ids the fuzzer mixes in.
 */
export async function fuzzTarget(ts: TestServer): Promise<FuzzTarget> {
  const oauth2 = ts.server.oauth2;
  if (!oauth2) throw new Error("the fuzz target needs the OAuth2 service");
  const ports: Record<Listener, number> = {
    "kratos-public": portOf(ts.publicUrl),
    "kratos-admin": portOf(ts.adminUrl),
    "oauth2-public": portOf(oauth2.publicUrl),
    "oauth2-admin": portOf(oauth2.adminUrl),
    mailbox: portOf(ts.mailboxUrl),
  };
  const discovery = await json(await fetch(`${oauth2.publicUrl}/.well-known/openid-configuration`));
  const discovered = Object.entries(discovery)
    .filter(([key, value]) =>
      key.endsWith("_endpoint") || key === "jwks_uri" ? typeof value === "string" : false,
    )
    .map(([, value]) => new URL(value as string))
    .filter((url) => Number(url.port) === ports["oauth2-public"])
    .flatMap((url) =>
      ["GET", "POST"].map((method) => ({
        listener: "oauth2-public" as const,
        method,
        segments: segmentsOf(url.pathname),
      })),
    );
  const routes = unique([
    ...fastifyRoutes("kratos-public", ports["kratos-public"]),
    ...fastifyRoutes("kratos-admin", ports["kratos-admin"]),
    ...fastifyRoutes("oauth2-admin", ports["oauth2-admin"]),
    ...fastifyRoutes("mailbox", ports.mailbox),
    ...specRoutes(readSpec("kratos-openapi.json"), (path) =>
      path.startsWith("/admin/") ? "kratos-admin" : "kratos-public",
    ),
    ...specRoutes(readSpec("hydra-openapi.json"), (path) =>
      path.startsWith("/admin/") ? "oauth2-admin" : "oauth2-public",
    ),
    ...discovered,
  ]);

  // Real ids, so that some requests reach the code behind the id lookups.
  const { token, identityId } = await registerNative(ts, `fuzz-${Date.now()}@example.org`);
  const whoami = await json(
    await fetch(`${ts.publicUrl}/sessions/whoami`, { headers: { "x-session-token": token } }),
  );
  const flowIds = await Promise.all(
    ["login", "registration", "recovery", "verification"].map(async (kind) =>
      String((await json(await fetch(`${ts.publicUrl}/self-service/${kind}/api`))).id),
    ),
  );
  const settings = await json(
    await fetch(`${ts.publicUrl}/self-service/settings/api`, {
      headers: { "x-session-token": token },
    }),
  );
  const client = await json(
    await fetch(`${oauth2.adminUrl}/admin/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "fuzz",
        redirect_uris: ["http://127.0.0.1:5555/callback"],
        grant_types: ["authorization_code", "refresh_token", "client_credentials"],
        response_types: ["code"],
        scope: "openid offline_access",
      }),
    }),
  );
  const ids = [
    identityId,
    String(whoami.id),
    ...flowIds,
    String(settings.id),
    String(client.client_id),
  ];
  return { ports, routes, ids, sessionToken: token };
}
