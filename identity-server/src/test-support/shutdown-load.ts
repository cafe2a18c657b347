import { Agent, request } from "node:http";

// A load running through a SIGTERM, the way a balancer sends it: clients keep sending until the
// balancer's readiness probe sees the server "shutting down", then stop. Every request they sent
// until then must be answered (any HTTP status): a reset or a refused connection is a failure.

export interface ShutdownLoad {
  /** The listener under load, e.g. http://127.0.0.1:4444 */
  origin: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  clients: number;
  keepAlive: boolean;
  /** Sends the server its SIGTERM. */
  signal(): void;
}

export interface ShutdownLoadResult {
  /** Requests answered, before and after the signal. */
  answered: number;
  answeredAfterSignal: number;
  statuses: Set<number>;
  /** How requests failed: `code message` per failure. */
  failures: string[];
}

interface Answer {
  status: number;
  body: string;
}

function send(url: URL, load: ShutdownLoad, agent: Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: load.method, headers: load.headers, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(load.body);
  });
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return `${code ?? "?"} ${message ?? String(error)}`;
}

/** Runs the load, signals once every client was answered twice, and ends once the balancer noticed. */
export async function loadThroughShutdown(load: ShutdownLoad): Promise<ShutdownLoadResult> {
  const agent = load.keepAlive ? new Agent({ keepAlive: true, maxSockets: load.clients }) : false;
  const result: ShutdownLoadResult = {
    answered: 0,
    answeredAfterSignal: 0,
    statuses: new Set(),
    failures: [],
  };
  let signalled = false;
  let noticed = false;
  let warmedUp: () => void = () => undefined;
  const warm = new Promise<void>((resolve) => (warmedUp = resolve));
  const target = new URL(load.path, load.origin);

  const client = async () => {
    while (!noticed) {
      try {
        const answer = await send(target, load, agent);
        result.answered++;
        if (signalled) result.answeredAfterSignal++;
        result.statuses.add(answer.status);
        if (result.answered >= load.clients * 2) warmedUp();
      } catch (error) {
        result.failures.push(describeError(error));
        // A server that refuses or resets would otherwise spin this loop until the test times out.
        if (!signalled) warmedUp();
        return;
      }
    }
  };
  const clients = Array.from({ length: load.clients }, client);

  await warm;
  signalled = true;
  load.signal();
  // The balancer's probe, on connections of its own: it is one of the senders too.
  const ready = new URL("/health/ready", load.origin);
  while (!noticed) {
    try {
      const answer = await send(ready, { ...load, method: "GET", body: undefined }, false);
      noticed = answer.status === 503 && answer.body.includes("shutting down");
    } catch (error) {
      result.failures.push(`readiness: ${describeError(error)}`);
      noticed = true;
    }
  }
  await Promise.all(clients);
  if (agent) agent.destroy();
  return result;
}
