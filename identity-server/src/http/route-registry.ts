import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";

/** One method and URL pattern a listener answers (`:name` for path parameters). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

interface Recorded {
  app: WeakRef<FastifyInstance>;
  routes: RegisteredRoute[];
}

const recorded = new Set<Recorded>();

/**
 * Records every route registered on `app` from now on (call it before any route is added). The
 * list drives the 405 answers, and `routesListeningOn` lets the hardening tests fuzz every route
 * of a running listener without a hand-kept list.
 */
export function recordRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  const entry: Recorded = { app: new WeakRef(app), routes: [] };
  recorded.add(entry);
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) entry.routes.push({ method: String(method), url: route.url });
  });
  app.addHook("onClose", (_instance, done) => {
    recorded.delete(entry);
    done();
  });
  return entry.routes;
}

/** The routes of the recorded listener bound to `port` in this process (undefined if none). */
export function routesListeningOn(port: number): readonly RegisteredRoute[] | undefined {
  for (const entry of recorded) {
    const app = entry.app.deref();
    if (!app) {
      recorded.delete(entry);
      continue;
    }
    const address = app.server.address() as AddressInfo | null;
    if (address?.port === port) return [...entry.routes];
  }
  return undefined;
}
