import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { sql, type Kysely } from "kysely";
import type { Courier } from "../courier/courier.ts";
import { onDatabaseBusy } from "../store/database.ts";
import type { Database } from "../store/schema.ts";
import { RequestSeries } from "./request-series.ts";

/**
 * The identity server's Prometheus metrics (its OAuth2 service's too), in one registry per
 * running server, served on the admin listeners at Kratos' and Hydra's `/metrics/prometheus`.
 * Every label value comes from a small fixed set (listener names, route patterns, login methods,
 * template types), never from a raw URL, an address or an id, so no request can add series.
 */
export interface IdentityMetrics {
  registry: Registry;
  /** One answered request: `route` is a pattern such as `/self-service/login` or `unmatched`. */
  request(listener: Listener, method: string, route: string, status: number, seconds: number): void;
  /** A sign-in attempt that reached a method's check: `success` or `failure`. */
  login(method: string, result: "success" | "failure"): void;
  /**
   * A submission a rate limit refused: too many wrong `attempts` (passwords, second factors), too
   * many `codes` sent, too many failed OAuth2 client secrets (`client_auth`).
   */
  rateLimited(limit: "attempts" | "codes" | "client_auth"): void;
}

export type Listener = "public" | "admin" | "oauth2-public" | "oauth2-admin";

const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

// Most answers take a few milliseconds; password hashing takes tens to hundreds.
const requestBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createIdentityMetrics(): IdentityMetrics {
  const registry = new Registry();
  // Event-loop lag, resident memory, heap, GC, handles under prom-client's standard names
  // (nodejs_eventloop_lag_seconds, process_resident_memory_bytes …) that dashboards expect.
  collectDefaultMetrics({ register: registry });

  const labelNames = ["listener", "method", "route", "status"] as const;
  // Counted by RequestSeries on the request path, handed over when scraped.
  const series = new RequestSeries(requestBuckets);
  const requests: Counter = new Counter({
    name: "identity_http_requests_total",
    help: "Requests answered, by listener, method, route pattern and status.",
    labelNames,
    registers: [registry],
    collect: () => series.copyInto(requests, requestSeconds),
  });
  const requestSeconds: Histogram = new Histogram({
    name: "identity_http_request_duration_seconds",
    help: "Time from a request's arrival until its answer, by listener, method, route pattern and status.",
    labelNames,
    buckets: requestBuckets,
    registers: [registry],
    collect: () => series.copyInto(requests, requestSeconds),
  });
  const rateLimited = new Counter({
    name: "identity_rate_limit_refusals_total",
    help: "Submissions refused by a rate limit: too many wrong passwords or second factors (`attempts`), too many codes to one address or from one IP (`codes`), too many failed OAuth2 client secrets (`client_auth`).",
    labelNames: ["limit"],
    registers: [registry],
  });
  const logins = new Counter({
    name: "identity_login_attempts_total",
    help: "Sign-in submissions a login method checked, by method (password, code, totp …) and result.",
    labelNames: ["method", "result"],
    registers: [registry],
  });
  return {
    registry,
    request(listener, method, route, status, seconds) {
      series.record(listener, knownMethods.has(method) ? method : "other", route, status, seconds);
    },
    rateLimited(limit) {
      rateLimited.inc({ limit });
    },
    login(method, result) {
      logins.inc({ method, result });
    },
  };
}

/**
 * The courier's numbers: messages sent (each a code or a notice) and failed attempts by channel
 * and template, from its events; the queue depth by status, counted when scraped.
 */
export function observeCourier(
  metrics: IdentityMetrics,
  courier: Courier,
  db: Kysely<Database>,
): void {
  const { registry } = metrics;
  const sent = new Counter({
    name: "identity_courier_messages_sent_total",
    help: "Messages delivered (codes and notices), by channel and template type.",
    labelNames: ["channel", "template"],
    registers: [registry],
  });
  const failed = new Counter({
    name: "identity_courier_delivery_failures_total",
    help: "Failed delivery attempts, by channel, template type and outcome (`retry` or `abandoned`).",
    labelNames: ["channel", "template", "outcome"],
    registers: [registry],
  });
  new Gauge({
    name: "identity_courier_queue_depth",
    help: "Messages waiting to be sent (`queued`) or being sent (`processing`).",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const rows = await sql<{ status: string; count: number }>`
        SELECT status, COUNT(*) AS count FROM courier_messages
        WHERE status IN ('queued', 'processing') GROUP BY status`.execute(db);
      const counts = new Map(rows.rows.map((row) => [row.status, Number(row.count)]));
      for (const status of ["queued", "processing"]) this.set({ status }, counts.get(status) ?? 0);
    },
  });
  courier.on("sent", (message) => {
    sent.inc({ channel: message.channel, template: message.templateType });
  });
  courier.on("failed", (message) => {
    failed.inc({
      channel: message.channel,
      template: message.templateType,
      outcome: message.status === "abandoned" ? "abandoned" : "retry",
    });
  });
}

/** Statements that failed because another connection held the database past the busy timeout. */
export function observeDatabase(metrics: IdentityMetrics, db: Kysely<Database>): void {
  const busy = new Counter({
    name: "identity_database_busy_total",
    help: "Statements that found the SQLite database locked by another connection past its busy timeout (SQLITE_BUSY); SQLite itself retried them until then.",
    registers: [metrics.registry],
  });
  onDatabaseBusy(db, () => busy.inc());
}
