// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { parseConfig } from "../config.server.ts";
import { startTracing } from "./tracing.server.ts";

// Every OpenTelemetry module the tracing may load, recorded when something imports it. This file
// imports tracing.server.ts (as server.ts does) but nothing of the SDK itself.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("@opentelemetry/api", async (original) => {
  loaded.push("api");
  return original();
});
vi.mock("@opentelemetry/core", async (original) => {
  loaded.push("core");
  return original();
});
vi.mock("@opentelemetry/sdk-trace", async (original) => {
  loaded.push("sdk-trace");
  return original();
});
vi.mock("@opentelemetry/exporter-trace-otlp-http", async (original) => {
  loaded.push("exporter-trace-otlp-http");
  return original();
});

describe("OTEL_EXPORTER_OTLP_ENDPOINT unset", () => {
  it("loads no OpenTelemetry module, neither with the portal's modules nor on start", async () => {
    const config = parseConfig({});
    expect(config.otlpEndpoint).toBeUndefined();
    expect(await startTracing({ endpoint: config.otlpEndpoint })).toBeUndefined();
    expect(loaded).toEqual([]);
  });

  it("set, loads the SDK and its OTLP exporter (what the check above would see)", async () => {
    const tracing = await startTracing({ endpoint: "http://127.0.0.1:1" });
    expect(tracing).toBeDefined();
    expect([...loaded].sort()).toEqual(["api", "core", "exporter-trace-otlp-http", "sdk-trace"]);
    await tracing?.shutdown();
  });
});
