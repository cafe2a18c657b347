// @vitest-environment node
import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { startPortalProcess } from "../../test/portal-process.ts";
import { parseConfig } from "../config.server.ts";
import { startTracing } from "./tracing.server.ts";

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const parentSpanId = "00f067aa0ba902b7";
const traceparent = `00-${traceId}-${parentSpanId}-01`;

describe("the portal's request spans (in-memory exporter)", () => {
  it("continue the incoming traceparent, named by the route, and hand on their own context", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = await startTracing({ endpoint: undefined, exporter });
    const request = tracing?.startRequest({
      method: "GET",
      headers: { traceparent, tracestate: "lb=7", "user-agent": "test" },
      correlationId: "req-1",
    });
    request?.end("/:lang/login", 200);
    // A second end (the body limit's answer, then a late finish) records nothing more.
    request?.end("unmatched", 413);

    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span?.name).toBe("GET /:lang/login");
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parentSpanId);
    expect(span?.attributes).toEqual({
      "http.request.method": "GET",
      "http.route": "/:lang/login",
      "http.response.status_code": 200,
      correlation_id: "req-1",
    });
    // What the calls to the identity service send: the same trace, this span as their parent.
    expect(request?.headers).toEqual({
      traceparent: `00-${traceId}-${span?.spanContext().spanId}-01`,
      tracestate: "lb=7",
    });
    await tracing?.shutdown();
  });

  it("start a trace of their own without a (well-formed) traceparent; 5xx is an error", async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = await startTracing({ endpoint: undefined, exporter });
    tracing?.startRequest({ method: "POST", headers: {}, correlationId: undefined }).end("/*", 500);
    tracing
      ?.startRequest({
        method: "GET",
        headers: { traceparent: "00-not-a-trace" },
        correlationId: undefined,
      })
      .end("static", 200);
    const [first, second] = exporter.getFinishedSpans();
    expect(first?.name).toBe("POST /*");
    expect(first?.status.code).toBe(2);
    expect(first?.parentSpanContext).toBeUndefined();
    expect(first?.attributes.correlation_id).toBeUndefined();
    expect(second?.parentSpanContext).toBeUndefined();
    expect(second?.spanContext().traceId).toMatch(/^[\da-f]{32}$/);
    expect(second?.spanContext().traceId).not.toBe(first?.spanContext().traceId);
    await tracing?.shutdown();
  });
});

describe("OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("is an http(s) URL, else start-up stops naming the variable", () => {
    expect(
      parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).otlpEndpoint,
    ).toBe("http://collector:4318");
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http\(s\) URL/,
    );
  });
});

// The real portal with OTEL_EXPORTER_OTLP_ENDPOINT, between a browser's traceparent, a stub
// identity service and a stub collector: one trace from the browser through the identity service.
describe("the portal's trace, end to end", () => {
  it("sends the identity service its own span's context, a child of the browser's", async () => {
    const identityHeaders = new Map<string, IncomingHttpHeaders>();
    const identity = await listen((req, res) => {
      req.resume();
      identityHeaders.set((req.url ?? "").split("?")[0] ?? "", req.headers);
      // Flow creation refused: the login page shows its rate-limit answer, no more calls.
      res.writeHead(429, { "content-type": "application/json", "retry-after": "60" });
      res.end('{"error":{"code":429}}');
    });
    let exported = "";
    const collector = await listen((req, res) => {
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (exported += chunk));
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    });
    const portal = await startPortalProcess({
      KRATOS_PUBLIC_URL: identity.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    });
    try {
      await (await fetch(`${portal.origin}/en/login`, { headers: { traceparent } })).text();
      const proxiedTrace = `00-${traceId}-${"1".repeat(16)}-01`;
      await (
        await fetch(`${portal.origin}/api/kratos/sessions/whoami`, {
          headers: { traceparent: proxiedTrace, tracestate: "browser=1" },
        })
      ).text();
      // SIGTERM: the batch goes to the collector before the process ends.
      await portal.stop();

      const page = identityHeaders.get("/self-service/login/browser")?.traceparent;
      const proxied = identityHeaders.get("/sessions/whoami");
      for (const sent of [page, proxied?.traceparent]) {
        expect(sent).toMatch(new RegExp(`^00-${traceId}-[\\da-f]{16}-01$`));
        // Not the browser's own span: the portal's, which the collector received.
        const spanId = String(sent).split("-")[2] ?? "";
        expect([parentSpanId, "1".repeat(16)]).not.toContain(spanId);
        expect(exported).toContain(spanId);
      }
      expect(proxied?.tracestate).toBe("browser=1");
      expect(exported).toContain(traceId);
      expect(exported).toContain("GET /:lang/login");
      expect(exported).toContain("GET /api/kratos/*");
    } finally {
      await portal.stop();
      await identity.close();
      await collector.close();
    }
  }, 60_000);
});

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
