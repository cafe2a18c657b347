// Browser-like request sequences for autocannon: each connection plays one browser at a time,
// keeping its cookies between the steps of a sequence and starting afresh (no cookies) after it.
// A unit of work (a page view, a sign-in) counts once its last step answered as expected; a step
// that answers otherwise ends the sequence there and counts as failed.
import type autocannon from "autocannon";
import { runLoad, type LoadFigures } from "./load.ts";
import { quantile } from "./stats.ts";

/** One connection's browser: its cookies and what earlier steps found. */
export interface Visit {
  cookies: Record<string, string>;
  /** The Location of the last redirect. */
  location?: string;
  /** The last answer's body (HTML or JSON). */
  body?: string;
  startedAt?: number;
  failed?: boolean;
}

export interface Step {
  method?: "GET" | "POST";
  /** The path (and query) to request and the body, from what earlier steps found. */
  to: (visit: Visit) => { path: string; body?: string };
  headers?: Record<string, string>;
  /** Whether the answer is the expected one. */
  expect: (status: number) => boolean;
}

type Headers = Record<string, string | string[] | undefined>;

function headerValues(headers: Headers, name: string): string[] {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
}

const cookieOf = (visit: Visit): string =>
  Object.entries(visit.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");

/**
 * Runs `steps` in a loop on every connection for `seconds`. perSecond counts completed sequences;
 * latency runs from the first step's request to the last step's answer (milliseconds, measured
 * here, not autocannon's whole milliseconds).
 */
export async function runSequence(
  baseUrl: string,
  steps: Step[],
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  let succeeded = 0;
  let failed = 0;
  const latencies: number[] = [];
  const requests = steps.map((step, index): autocannon.Request => ({
    method: step.method ?? "GET",
    setupRequest: (request, context) => {
      const visit = context as Visit;
      if (index === 0) {
        visit.cookies = {};
        visit.startedAt = performance.now();
        delete visit.failed;
      } else if (visit.failed) {
        // autocannon then starts the sequence again, with a fresh context.
        return undefined as unknown as autocannon.Request;
      }
      const cookie = cookieOf(visit);
      const { path, body } = step.to(visit);
      return {
        ...request,
        method: step.method ?? "GET",
        path,
        headers: { ...step.headers, ...(cookie ? { cookie } : {}) },
        ...(body !== undefined ? { body } : {}),
      };
    },
    onResponse: (status, body, context, headers) => {
      const visit = context as Visit;
      for (const setCookie of headerValues(headers as Headers, "set-cookie")) {
        const [pair = ""] = setCookie.split(";");
        const separator = pair.indexOf("=");
        const [name, value] = [pair.slice(0, separator), pair.slice(separator + 1)];
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(setCookie)) delete visit.cookies[name];
        else visit.cookies[name] = value;
      }
      visit.location = headerValues(headers as Headers, "location")[0];
      visit.body = body;
      if (!step.expect(status)) {
        visit.failed = true;
        failed++;
      } else if (index === steps.length - 1) {
        succeeded++;
        latencies.push(performance.now() - (visit.startedAt ?? 0));
      }
    },
  }));
  const started = performance.now();
  const figures = await runLoad({
    url: baseUrl,
    connections,
    seconds,
    requests,
  });
  const elapsed = (performance.now() - started) / 1000;
  return {
    perSecond: succeeded / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    // Sequences cut short by an unexpected answer, and socket errors and timeouts.
    errors: failed + figures.socketErrors,
    socketErrors: figures.socketErrors,
    total: succeeded + failed,
  };
}
