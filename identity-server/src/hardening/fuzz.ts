import fc from "fast-check";
import type { FuzzTarget, Listener, Route } from "./fuzz-targets.ts";
import { fuzzCase } from "./fuzz-requests.ts";
import { rawRequest, type RawRequest, type RawResponse } from "./raw-http.ts";

// Fuzzing every listener: what each answer to a bad request must look like, and the run.

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function isKratosError(body: unknown): boolean {
  if (!isObject(body) || !isObject(body.error)) return false;
  const { code, status, message } = body.error;
  return typeof code === "number" && typeof status === "string" && typeof message === "string";
}

/** A self-service flow rendered with its messages (Kratos' 400/410/422 answer to a submission). */
function isFlow(body: unknown): boolean {
  return isObject(body) && typeof body.id === "string" && isObject(body.ui);
}

function isHydraError(body: unknown): boolean {
  return (
    isObject(body) && typeof body.error === "string" && typeof body.error_description === "string"
  );
}

function acceptsHtml(request: RawRequest): boolean {
  const accept = request.headers.filter(([name]) => name === "Accept").map(([, value]) => value);
  return accept.length === 0 || !accept.join(",").includes("application/json");
}

/**
 * What is wrong with an answer, or undefined: never a 5xx or no answer, and a 4xx body is the
 * listener's documented error shape (Kratos' `{error:{code,status,message}}` or a flow with its
 * messages; Hydra's `{error, error_description}`; HTML only where a browser asked for a page).
 */
function problemWith(
  listener: Listener,
  request: RawRequest,
  response: RawResponse,
): string | undefined {
  if (response.status === 0) return `no answer (${response.error ?? "empty"})`;
  if (response.status >= 500) return `status ${response.status}: ${response.body.slice(0, 300)}`;
  if (response.status < 400 || request.method === "HEAD") return undefined;
  const type = response.headers["content-type"] ?? "";
  const body = parseJson(response.body);
  switch (listener) {
    case "kratos-public":
    case "kratos-admin":
      if (type.includes("application/json") && (isKratosError(body) || isFlow(body)))
        return undefined;
      if (listener === "kratos-public" && type.includes("text/html") && acceptsHtml(request)) {
        return undefined;
      }
      break;
    case "oauth2-admin":
      if (type.includes("application/json") && isHydraError(body)) return undefined;
      // A used challenge: Hydra answers 410 with where the browser goes instead.
      if (response.status === 410 && isObject(body) && typeof body.redirect_to === "string") {
        return undefined;
      }
      break;
    case "oauth2-public":
      if (type.includes("application/json") && isHydraError(body)) return undefined;
      // oidc-provider renders errors of browser endpoints (authorize, logout) as a page.
      if (type.includes("text/html")) return undefined;
      break;
    case "mailbox":
      if (type.includes("application/json") && isObject(body) && typeof body.message === "string") {
        return undefined;
      }
      break;
  }
  return `status ${response.status} answered in the wrong shape (${type || "no content type"}): ${response.body.slice(0, 300)}`;
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** A readable one-request summary for failure reports. */
function describe(route: Route, request: RawRequest): string {
  const headers = request.headers.map(
    ([name, value]) => `${name}: ${clip(JSON.stringify(value), 80)}`,
  );
  const body =
    request.body === undefined ? "no body" : clip(JSON.stringify(request.body.toString()), 160);
  return `${route.listener} ${request.method} ${clip(request.target)} [${headers.join("; ")}] ${body}${request.chunked ? " (chunked)" : ""}`;
}

export interface FuzzReport {
  requests: number;
  statuses: Record<number, number>;
}

/**
 * Sends `requests` generated requests (in parallel batches) and checks every answer, then that
 * every listener is still alive. Throws fast-check's report (seed, shrunk counterexample) on the
 * first bad answer.
 */
export async function runFuzz(
  fuzz: FuzzTarget,
  options: { requests: number; parallel?: number; seed?: number },
): Promise<FuzzReport> {
  const parallel = options.parallel ?? 8;
  const statuses: Record<number, number> = {};
  let sent = 0;
  const alive = async () => {
    const answer = await rawRequest(fuzz.ports["kratos-public"], {
      method: "GET",
      target: "/health/alive",
      headers: [],
    });
    return answer.status === 200;
  };
  const result = await fc.check(
    fc.asyncProperty(
      fc.array(fuzzCase(fuzz), { minLength: parallel, maxLength: parallel }),
      async (cases) => {
        const answers = await Promise.all(
          cases.map(({ route, request }) => rawRequest(fuzz.ports[route.listener], request)),
        );
        sent += cases.length;
        const problems = cases.flatMap(({ route, request }, i) => {
          const answer = answers[i] as RawResponse;
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          const problem = problemWith(route.listener, request, answer);
          return problem ? [`${describe(route, request)}\n    → ${problem}`] : [];
        });
        if (!(await alive())) problems.push("the public listener no longer answers /health/alive");
        if (problems.length > 0) throw new Error(problems.join("\n"));
      },
    ),
    { numRuns: Math.ceil(options.requests / parallel), seed: options.seed },
  );
  if (result.failed) {
    // fast-check's own report prints every (huge) generated body; the shrunk problems suffice.
    const error = result.errorInstance instanceof Error ? result.errorInstance.message : "";
    throw new Error(
      `fuzzing failed (seed ${result.seed}, path "${result.counterexamplePath ?? ""}", ` +
        `after ${result.numRuns} runs, shrunk ${result.numShrinks} times):\n${error}`,
    );
  }
  return { requests: sent, statuses };
}
