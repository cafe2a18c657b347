import type { IncomingHttpHeaders } from "node:http";
import type { SpanExporter } from "@opentelemetry/sdk-trace";

/**
 * OpenTelemetry tracing of the identity server's requests, with the official SDK: off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test passes an exporter). When off nothing of the SDK
 * is even loaded: the modules are imported here, on start, only when tracing is on.
 *
 * A request's span continues the caller's W3C `traceparent` (and `tracestate`), so the portal's
 * trace and ours are one; the `x-correlation-id` is recorded on the span to join it to the logs.
 */
export interface Tracing {
  /** Starts the server span of a request; `end` records its answer. */
  startRequest(request: TracedRequest): { end(status: number): void };
  /** Sends what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

interface TracedRequest {
  method: string;
  /** The route pattern (`/self-service/login`), never the path with its ids. */
  route: string;
  headers: IncomingHttpHeaders;
  correlationId: string | undefined;
  listener: string;
}

interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (spans go to `<url>/v1/traces`). */
  endpoint: string | undefined;
  /** Tests: spans go here at once (no batching) instead of to a collector. */
  exporter?: SpanExporter | undefined;
}

export async function startTracing(options: TracingOptions): Promise<Tracing | undefined> {
  if (options.endpoint === undefined && options.exporter === undefined) return undefined;
  const [api, core, sdk] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/sdk-trace"),
  ]);
  let processor;
  if (options.exporter) {
    processor = new sdk.SimpleSpanProcessor({ exporter: options.exporter });
  } else {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    const url = `${(options.endpoint ?? "").replace(/\/+$/, "")}/v1/traces`;
    processor = new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) });
  }
  // A provider of our own, not the global one: two servers in one process keep apart.
  const provider = new sdk.TracerProvider({ spanProcessors: [processor] });
  const tracer = provider.getTracer("identity-server");
  const propagator = new core.W3CTraceContextPropagator();
  const getter: import("@opentelemetry/api").TextMapGetter<IncomingHttpHeaders> = {
    keys: (headers) => Object.keys(headers),
    get: (headers, key) => headers[key],
  };

  return {
    startRequest({ method, route, headers, correlationId, listener }) {
      const parent = propagator.extract(api.ROOT_CONTEXT, headers, getter);
      const span = tracer.startSpan(
        `${method} ${route}`,
        {
          kind: api.SpanKind.SERVER,
          attributes: {
            "http.request.method": method,
            "http.route": route,
            "identity.listener": listener,
            ...(correlationId ? { correlation_id: correlationId } : {}),
          },
        },
        parent,
      );
      return {
        end(status) {
          span.setAttribute("http.response.status_code", status);
          if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
