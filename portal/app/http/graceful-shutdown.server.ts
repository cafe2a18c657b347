import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

/**
 * Shutdown of a plain Node listener that drops nothing under load (the identity server has the same).
 *
 * From `start()` (SIGTERM) readiness answers 503 and every answer carries `Connection: close`, so
 * each client's next request opens a new connection, which the balancer gives to another
 * instance. The listener keeps accepting and answering until nothing has arrived for a second
 * (the balancer noticed), at most half the grace period; then it stops accepting (new connections
 * are refused) and the connections it holds end after their answer, idle ones with a FIN. What is
 * still open when the grace period is over is cut. Sockets are tracked, not only parsed requests:
 * a connection accepted with its request still unread is answered, not reset.
 */
export interface Drain {
  isDraining(): boolean;
  /** Starts the drain (once); resolves when it ended, with the number of requests cut off. */
  start(): Promise<{ cut: number }>;
}

/** How long the listener must have had no new connection or request before it stops accepting. */
const quietMs = 1000;

interface SocketState {
  /** When it was accepted or last finished an answer. */
  idleSince: number;
  /** Requests on the socket whose answer is not finished. */
  active: number;
  /** `bytesRead` when its last answer finished: more means a request is on its way. */
  readAtLastAnswer: number;
}

export function trackDrain(server: Server, graceMs: number): Drain {
  const inFlight = new Set<ServerResponse>();
  // Sockets, not only parsed requests: a connection whose request is still in its buffer counts.
  const sockets = new Map<Socket, SocketState>();
  let lastArrival = 0;
  let draining = false;
  let finished: Promise<{ cut: number }> | undefined;

  server.on("connection", (socket: Socket) => {
    lastArrival = performance.now();
    sockets.set(socket, { idleSince: lastArrival, active: 0, readAtLastAnswer: 0 });
    socket.once("close", () => sockets.delete(socket));
  });
  // Before the handler: it may answer synchronously, after which no header can be added.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    lastArrival = performance.now();
    inFlight.add(res);
    const state = sockets.get(req.socket);
    if (state) state.active++;
    if (draining) res.setHeader("Connection", "close");
    res.once("close", () => {
      inFlight.delete(res);
      if (!state) return;
      state.active--;
      state.readAtLastAnswer = req.socket.bytesRead;
      state.idleSince = performance.now();
    });
  });

  /**
   * Ends (FIN, not RST) the sockets that have been idle for a while: a keep-alive connection that
   * answered before the drain, or one that never sent anything. One accepted just now may have its
   * request in the kernel's buffer still: it is answered (with `Connection: close`) instead.
   */
  const endIdleSockets = (now: number) => {
    for (const [socket, state] of sockets) {
      const idle = state.active === 0 && socket.bytesRead === state.readAtLastAnswer;
      if (idle && now - state.idleSince >= Math.min(quietMs, graceMs)) socket.end();
    }
  };

  return {
    isDraining: () => draining,
    start() {
      finished ??= new Promise((resolve) => {
        draining = true;
        const started = performance.now();
        let cut = 0;
        let quietTimer: NodeJS.Timeout | undefined;
        const graceTimer = setTimeout(() => {
          cut = inFlight.size;
          stopAccepting();
          server.closeAllConnections();
          for (const socket of sockets.keys()) socket.destroy();
        }, graceMs);
        let stopped = false;
        const stopAccepting = () => {
          if (stopped) return;
          stopped = true;
          clearTimeout(quietTimer);
          // net.Server's close, not http.Server's: that one also destroys "idle" connections,
          // among them accepted ones whose request is still unread (they would get an RST).
          const done = () => {
            clearTimeout(graceTimer);
            resolve({ cut });
          };
          // Its callback runs once every connection is closed (at once if it was not listening).
          NetServer.prototype.close.call(server, done);
          endIdleSockets(performance.now());
        };
        // The listener stays open until nothing arrived for `quietMs` (the balancer noticed the
        // 503), at most half the grace period: the other half is for what it accepted to finish.
        const openAtMost = graceMs / 2;
        const checkQuiet = () => {
          const now = performance.now();
          const quietAt = Math.max(lastArrival, started) + Math.min(quietMs, openAtMost);
          const closeAt = Math.min(quietAt, started + openAtMost);
          if (now >= closeAt) stopAccepting();
          else quietTimer = setTimeout(checkQuiet, closeAt - now);
        };
        for (const res of inFlight) {
          if (!res.headersSent) res.setHeader("Connection", "close");
        }
        checkQuiet();
      });
      return finished;
    },
  };
}
