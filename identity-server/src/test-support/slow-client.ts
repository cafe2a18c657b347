import { connect } from "node:net";

// A raw-socket client for the listener-limit tests of every service (identity server, portal,
// demo): what a slowloris sends, and how long the server took to cut it off.

export interface Closed {
  /** Everything the server sent before closing. */
  received: string;
  /** From the first byte written until the server closed the connection. */
  ms: number;
}

/**
 * Opens a connection, writes `first`, then writes `drip` every 200 ms (the slowloris: always a
 * little activity, never a whole request) until the server closes the connection.
 */
export function slowClient(url: string, first: string, drip: string | undefined): Promise<Closed> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", (error: Error & { code?: string }) => {
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error);
    });
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ received, ms: performance.now() - started });
    });
    socket.on("connect", () => {
      started = performance.now();
      socket.write(first);
      if (drip !== undefined) {
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write(drip);
        }, 200);
      }
    });
  });
}
