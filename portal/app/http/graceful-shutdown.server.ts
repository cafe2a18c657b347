import type { Server, ServerResponse } from "node:http";

/**
 * Shutdown of the portal's listener that lets requests in flight finish.
 *
 * From `start()` (on SIGTERM) the portal is "draining": `/health/ready` answers 503 so the load
 * balancer sends new traffic elsewhere, idle keep-alive connections are closed, and every answer
 * still to be sent carries `Connection: close` (the client's next request opens a connection,
 * which the balancer gives to another instance). The listener stays open meanwhile: a request
 * the balancer sends before it noticed is still served. The drain ends once no request is in
 * flight, or when the grace period is over; then the listener closes and the connections left
 * are cut.
 */
export interface Drain {
  isDraining(): boolean;
  /** Starts the drain (once); resolves when it ended, with the number of requests cut off. */
  start(): Promise<{ cut: number }>;
}

export function trackDrain(server: Server, graceMs: number): Drain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let finished: Promise<{ cut: number }> | undefined;
  let finish: (() => void) | undefined;

  // Before Express: a handler may answer synchronously, after which no header can be added.
  server.prependListener("request", (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader("Connection", "close");
    res.once("close", () => {
      inFlight.delete(res);
      if (draining && inFlight.size === 0) finish?.();
    });
  });

  return {
    isDraining: () => draining,
    start() {
      finished ??= new Promise((resolve) => {
        draining = true;
        const timer = setTimeout(() => finish?.(), graceMs);
        finish = () => {
          finish = undefined;
          clearTimeout(timer);
          const cut = inFlight.size;
          server.close();
          server.closeAllConnections();
          resolve({ cut });
        };
        for (const res of inFlight) {
          if (!res.headersSent) res.setHeader("Connection", "close");
        }
        server.closeIdleConnections();
        if (inFlight.size === 0) finish();
      });
      return finished;
    },
  };
}
