import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { SpanExporter } from "@opentelemetry/sdk-trace";

/**
 * OpenTelemetry tracing of the portal's requests, with the official SDK (as the identity
 * server's): off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test passes an exporter). When
 * off nothing of the SDK is loaded: only types are imported above, the modules on start.
 *
 * A request's server span continues the browser's or balancer's W3C `traceparent` (and
 * `tracestate`); the calls made for it to the identity service carry the span's own context, so
 * the identity server's spans are its children and the whole journey is one trace.
 */
export interface PortalTracing {
  /** Starts the server span of a request. */
  startRequest(request: TracedRequest): RequestSpan;
  /** Sends what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface RequestSpan {
  /** `traceparent` (and `tracestate`) naming this span: calls made for the request send them. */
  readonly headers: TraceHeaders;
  /** Records the answer, named by what answered (a route pattern, never the path). Once only. */
  end(route: string, status: number): void;
}

export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

interface TracedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  correlationId: string | undefined;
}

interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (spans go to `<url>/v1/traces`). */
  endpoint: string | undefined;
  /** Tests: spans go here at once (no batching) instead of to a collector. */
  exporter?: SpanExporter | undefined;
}

export async function startTracing(options: TracingOptions): Promise<PortalTracing | undefined> {
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
  // A provider of our own, not the global one: nothing else in the process is traced by accident.
  const provider = new sdk.TracerProvider({ spanProcessors: [processor] });
  const tracer = provider.getTracer("portal");
  const propagator = new core.W3CTraceContextPropagator();
  const getter: import("@opentelemetry/api").TextMapGetter<IncomingHttpHeaders> = {
    keys: (headers) => Object.keys(headers),
    get: (headers, key) => headers[key],
  };

  return {
    startRequest({ method, headers, correlationId }) {
      // The propagator drops a malformed traceparent: the span then starts a trace of its own.
      const parent = propagator.extract(api.ROOT_CONTEXT, headers, getter);
      // Named for now by the method alone; `end` adds the route once something has answered.
      const span = tracer.startSpan(
        method,
        {
          kind: api.SpanKind.SERVER,
          attributes: {
            "http.request.method": method,
            ...(correlationId ? { correlation_id: correlationId } : {}),
          },
        },
        parent,
      );
      const carrier: Record<string, string> = {};
      propagator.inject(
        api.trace.setSpan(api.ROOT_CONTEXT, span),
        carrier,
        api.defaultTextMapSetter,
      );
      const traceHeaders: TraceHeaders = { traceparent: carrier.traceparent ?? "" };
      if (carrier.tracestate) traceHeaders.tracestate = carrier.tracestate;
      let ended = false;
      return {
        headers: traceHeaders,
        end(route, status) {
          if (ended) return;
          ended = true;
          span.updateName(`${method} ${route}`);
          span.setAttribute("http.route", route);
          span.setAttribute("http.response.status_code", status);
          if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}

/**
 * Express middleware: a span for each request, kept in `spans` for what answers it, ended with
 * the route that answered (`routeOf`) when the answer is sent.
 */
export function spanEachRequest<Req extends IncomingMessage, Res extends ServerResponse>(
  tracing: PortalTracing,
  spans: WeakMap<ServerResponse, RequestSpan>,
  correlationIdOf: (res: Res) => string | undefined,
  routeOf: (req: Req, res: Res) => string,
) {
  return (req: Req, res: Res, next: () => void): void => {
    const span = tracing.startRequest({
      method: req.method ?? "GET",
      headers: req.headers,
      correlationId: correlationIdOf(res),
    });
    spans.set(res, span);
    res.once("finish", () => span.end(routeOf(req, res), res.statusCode));
    next();
  };
}
