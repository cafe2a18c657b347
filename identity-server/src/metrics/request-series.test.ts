import { Counter, Histogram, Registry } from "prom-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createIdentityMetrics, type Listener } from "./identity-metrics.ts";

const counterName = "identity_http_requests_total";
const histogramName = "identity_http_request_duration_seconds";

type Answer = [Listener, string, string, number, number];

// Repeated label sets, a method Prometheus does not know, durations on a bucket's bound, past the
// last bound and with sums that are not exact in binary.
const answers: Answer[] = [
  ["public", "GET", "/sessions/whoami", 200, 0.0004],
  ["public", "GET", "/sessions/whoami", 401, 0.001],
  ["admin", "POST", "/admin/identities", 201, 0.0123],
  ["public", "GET", "/sessions/whoami", 200, 0.1 + 0.2],
  ["oauth2-public", "POST", "/oauth2/token", 400, 12.5],
  ["public", "PROPFIND", "unmatched", 405, 0.005],
  ["public", "GET", "/sessions/whoami", 200, 0.7],
  ["oauth2-admin", "POST", "/admin/oauth2/introspect", 200, 0.0021],
  ["public", "POST", "/self-service/login", 200, 2.5],
  ["admin", "POST", "/admin/identities", 201, 0.0999],
];

/** The same answers counted with prom-client's own inc and observe (how the server counted before). */
function reference(template: Registry, given: Answer[]): Registry {
  const registry = new Registry();
  const histogram = template.getSingleMetric(histogramName) as unknown as {
    help: string;
    upperBounds: number[];
  };
  const labelNames = ["listener", "method", "route", "status"];
  const counter = new Counter({
    name: counterName,
    help: (template.getSingleMetric(counterName) as unknown as { help: string }).help,
    labelNames,
    registers: [registry],
  });
  const seconds = new Histogram({
    name: histogramName,
    help: histogram.help,
    labelNames,
    buckets: [...histogram.upperBounds],
    registers: [registry],
  });
  for (const [listener, method, route, status, value] of given) {
    const labels = {
      listener,
      method: method === "PROPFIND" ? "other" : method,
      route,
      status: String(status),
    };
    counter.inc(labels);
    seconds.observe(labels, value);
  }
  return registry;
}

async function rendered(registry: Registry) {
  return {
    counter: await registry.getSingleMetricAsString(counterName),
    histogram: await registry.getSingleMetricAsString(histogramName),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("request metrics", () => {
  it("render exactly what prom-client's own counting renders, scrape after scrape", async () => {
    const metrics = createIdentityMetrics();
    const first = answers.slice(0, 6);
    for (const answer of first) metrics.request(...answer);
    const before = await rendered(metrics.registry);
    expect(before).toEqual(await rendered(reference(metrics.registry, first)));
    expect(before.counter).toContain(
      `${counterName}{listener="public",method="GET",route="/sessions/whoami",status="200"} 2`,
    );
    for (const answer of answers.slice(6)) metrics.request(...answer);
    expect(await rendered(metrics.registry)).toEqual(
      await rendered(reference(metrics.registry, answers)),
    );
    const json = await metrics.registry.getMetricsAsJSON();
    const reference_ = await reference(metrics.registry, answers).getMetricsAsJSON();
    expect(json.filter((m) => m.name.startsWith("identity_http_"))).toEqual(reference_);
  });

  it("count an answer without prom-client's per-call label hashing", () => {
    // prom-client's counting methods (each instance takes them from the prototype when built).
    type Counting = Record<"incWithoutExemplar" | "observeWithoutExemplar", () => void>;
    const inc = vi.spyOn(Counter.prototype as unknown as Counting, "incWithoutExemplar");
    const observe = vi.spyOn(Histogram.prototype as unknown as Counting, "observeWithoutExemplar");
    const metrics = createIdentityMetrics();
    metrics.request("public", "GET", "/sessions/whoami", 200, 0.001);
    expect(inc).not.toHaveBeenCalled();
    expect(observe).not.toHaveBeenCalled();
  });
});
