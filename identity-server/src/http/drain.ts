import type { Server, ServerResponse } from "node:http";

/**
 * Shutdown of a plain Node listener that lets requests in flight finish (the portal's
 * graceful-shutdown approach). From `start()` idle keep-alive connections are closed and every
 * answer still to be sent carries `Connection: close`, while the listener keeps serving what a
 * balancer sends before it noticed readiness turn 503. The drain ends once no request is in
 * flight, or when the grace period is over; then the listener closes and what is left is cut.
 */
interface Drain {
  isDraining(): boolean;
  /** Starts the drain (once); resolves when it ended, with the number of requests cut off. */
  start(): Promise<{ cut: number }>;
}

export function trackDrain(server: Server, graceMs: number): Drain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let finished: Promise<{ cut: number }> | undefined;
  let finish: (() => void) | undefined;

  // Before the handler: it may answer synchronously, after which no header can be added.
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
          if (server.listening) server.close(() => resolve({ cut }));
          else resolve({ cut });
          server.closeAllConnections();
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
