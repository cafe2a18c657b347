// autocannon in the bench process (the servers run in their own processes).
import autocannon from "autocannon";
import { quantile } from "./stats.ts";

export interface LoadFigures {
  /** Completed 2xx responses (or units of work, see runLogins) per second. */
  perSecond: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  /** Non-2xx responses plus socket errors and timeouts. */
  errors: number;
  /** Socket errors and timeouts alone. */
  socketErrors: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  requests?: autocannon.Request[];
}

/** Runs autocannon once; the latency figures are autocannon's (whole milliseconds). */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? "GET",
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    perSecond: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    socketErrors: result.errors,
    total: result["2xx"] + result.non2xx + result.errors,
  };
}

type Context = Record<string, unknown>;

/**
 * Password logins through the API flow (GET /self-service/login/api, then POST the password),
 * each for the identifier `nextIdentifier()` gives. One login is the pair; its latency is measured
 * from the flow request to the session answer.
 */
export async function runLogins(
  baseUrl: string,
  nextIdentifier: () => string,
  password: string,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  let succeeded = 0;
  let failed = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const figures = await runLoad({
    url: baseUrl,
    connections,
    seconds,
    requests: [
      {
        method: "GET",
        path: "/self-service/login/api",
        setupRequest: (request, context) => {
          (context as Context).startedAt = performance.now();
          return request;
        },
        onResponse: (status, body, context) => {
          if (status !== 200) return;
          (context as Context).flow = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        method: "POST",
        setupRequest: (request, context) => {
          const flow = (context as Context).flow;
          const identifier = nextIdentifier();
          return {
            ...request,
            path: `/self-service/login?flow=${String(flow)}`,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ method: "password", identifier, password }),
          };
        },
        onResponse: (status, _body, context) => {
          if (status === 200) {
            succeeded++;
            latencies.push(performance.now() - Number((context as Context).startedAt));
          } else failed++;
        },
      },
    ],
  });
  const elapsed = (performance.now() - started) / 1000;
  return {
    perSecond: succeeded / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    // Non-2xx answers to either request and socket errors.
    errors: figures.errors,
    socketErrors: figures.socketErrors,
    total: succeeded + failed,
  };
}
