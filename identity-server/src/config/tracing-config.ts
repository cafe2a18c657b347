import { httpUrl } from "./env-values.ts";

/**
 * OpenTelemetry's standard variable: with it set, every request's span (continuing the caller's
 * `traceparent`) is sent to the collector at `<url>/v1/traces` (OTLP over HTTP). Unset: no
 * tracing, and the SDK is not loaded.
 */
export const tracingEnvShape = {
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
};
