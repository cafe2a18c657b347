import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { startPortalProcess, type PortalProcess } from "./portal-process.ts";

/** A stand-in identity service on a free loopback port, for tests of the real portal server. */
export interface StandInService {
  url: string;
  /** Every request's URL (path and query), in arrival order. */
  urls: string[];
  close(): Promise<void>;
}

/** Starts a server answering each request with `answer`, recording the URLs asked for. */
export async function startStandInService(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<StandInService> {
  const urls: string[] = [];
  const server = createServer((req, res) => {
    urls.push(req.url ?? "");
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    urls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A stand-in identity service and the real portal server in front of it, for one file's tests. */
export interface PortalBesideStandIn {
  identity: StandInService;
  portal: PortalProcess;
}

/**
 * Starts the stand-in (from `startIdentity`) and the portal pointed at it before the file's tests,
 * and stops both after them. The fields are set once the tests start.
 */
export function portalBesideStandIn(
  startIdentity: () => Promise<StandInService>,
): PortalBesideStandIn {
  const system = {} as PortalBesideStandIn;
  beforeAll(async () => {
    system.identity = await startIdentity();
    system.portal = await startPortalProcess({ KRATOS_PUBLIC_URL: system.identity.url });
  }, 60_000);
  afterAll(async () => {
    await system.portal.stop();
    await system.identity.close();
  });
  return system;
}
