import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { startTracing } from "./tracing.ts";

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const parentSpanId = "00f067aa0ba902b7";
const traceparent = `00-${traceId}-${parentSpanId}-01`;

describe("tracing with an in-memory exporter", () => {
  const exporter = new InMemorySpanExporter();
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({}, undefined, { spanExporter: exporter });
  });
  afterAll(async () => {
    await ts.stop();
  });

  it("continues the caller's traceparent in a span named by the route pattern", async () => {
    exporter.reset();
    const response = await fetch(`${ts.publicUrl}/self-service/login/api`, {
      headers: { traceparent, "x-correlation-id": "portal-req-7" },
    });
    expect(response.status).toBe(200);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("GET /self-service/login/api");
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parentSpanId);
    expect(span?.attributes).toMatchObject({
      "http.route": "/self-service/login/api",
      "http.response.status_code": 200,
      correlation_id: "portal-req-7",
      "identity.listener": "public",
    });
  });

  it("does so on the admin and OAuth2 listeners, and starts a trace when none came", async () => {
    exporter.reset();
    await fetch(`${ts.adminUrl}/admin/identities/${crypto.randomUUID()}`, {
      headers: { traceparent },
    });
    await fetch(`${ts.server.oauth2?.publicUrl}/.well-known/openid-configuration`, {
      headers: { traceparent },
    });
    await fetch(`${ts.publicUrl}/health/alive`);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      "GET /admin/identities/:id",
      "GET /.well-known/openid-configuration",
      "GET /health/alive",
    ]);
    expect(spans[0]?.spanContext().traceId).toBe(traceId);
    expect(spans[1]?.spanContext().traceId).toBe(traceId);
    expect(spans[1]?.attributes["identity.listener"]).toBe("oauth2-public");
    expect(spans[2]?.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spans[2]?.spanContext().traceId).not.toBe(traceId);
    expect(spans[2]?.parentSpanContext).toBeUndefined();
  });
});

describe("OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("is off by default: no tracing is started", async () => {
    expect(loadConfig({}).otlpEndpoint).toBeUndefined();
    expect(await startTracing({ endpoint: undefined })).toBeUndefined();
  });

  it("sends the spans to <endpoint>/v1/traces over OTLP/HTTP", async () => {
    const received: { path: string | undefined; body: string }[] = [];
    const collector = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        received.push({ path: req.url, body });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    collector.listen(0, "127.0.0.1");
    await once(collector, "listening");
    const { port } = collector.address() as AddressInfo;
    try {
      const ts = await startTestServer({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/`,
      });
      await fetch(`${ts.publicUrl}/health/ready`, { headers: { traceparent } });
      // Stopping flushes the batch.
      await ts.stop();
      expect(received.map((request) => request.path)).toContain("/v1/traces");
      expect(received.map((request) => request.body).join("")).toContain(traceId);
    } finally {
      collector.close();
    }
  });

  it("must be an http(s) URL, naming the variable", () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an absolute http\(s\) URL/,
    );
  });
});
