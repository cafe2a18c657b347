import fc from "fast-check";
import { bodyLimitBytes } from "../http/api-listener-options.ts";
import type { FuzzTarget, Listener, Route } from "./fuzz-targets.ts";
import { rawRequest, type RawRequest, type RawResponse } from "./raw-http.ts";

// Bad requests for every route of every listener, and what each answer must look like.

export interface FuzzCase {
  route: Route;
  request: RawRequest;
}

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

const badIds = [
  "",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "7b1e5c3a-1111-4222-8333-44445555666g",
  "7B1E5C3A-1111-4222-8333-444455556666",
  "{7b1e5c3a-1111-4222-8333-444455556666}",
  "..",
  "../..",
  "../../../../etc/passwd",
  "..%2f..%2f..%2fetc%2fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "%2e%2e",
  "..%5c..%5cwindows",
  "%252e%252e%252f",
  "....//....//",
  "%00",
  "a%00b",
  "%ff%fe",
  "%",
  "%zz",
  "%E0%A4%A",
  "%C0%AE%C0%AE%2F",
  "\u00e9t\u00e9",
  "%F0%9F%92%A9",
  ";",
  "a;b=c",
  "x".repeat(3000),
  "null",
  "-1",
  "1e999",
  "__proto__",
  "constructor",
  // Response splitting, should a value be echoed into a header (Location, Set-Cookie).
  "a\r\nSet-Cookie: injected=1",
  "%0d%0aSet-Cookie:%20injected=1",
  "http://127.0.0.1:4455/\r\nX-Injected: 1",
  "\u2028\u2029",
];

const fieldNames = [
  "method",
  "identifier",
  "password",
  "password_identifier",
  "traits",
  "traits.email",
  "csrf_token",
  "code",
  "email",
  "resend",
  "totp_code",
  "totp_unlink",
  "lookup_secret",
  "lookup_secret_confirm",
  "webauthn_login",
  "webauthn_register",
  "passkey_login",
  "flow",
  "transient_payload",
  "schema_id",
  "state",
  "credentials",
  "metadata_public",
  "metadata_admin",
  "recovery_addresses",
  "verifiable_addresses",
  "expires_in",
  "identity_id",
  "identities",
  "client_id",
  "client_secret",
  "client_name",
  "redirect_uris",
  "grant_types",
  "response_types",
  "scope",
  "subject",
  "remember",
  "remember_for",
  "grant_scope",
  "grant_access_token_audience",
  "session",
  "token",
  "token_type_hint",
  "refresh_token",
  "grant_type",
  "redirect_uri",
  "code_verifier",
  "assertion",
  "issuer",
  "jwk",
  "expires_at",
  "allow_any_subject",
  "acr",
  "amr",
  "context",
  "error",
  "error_description",
  "status_code",
  "__proto__",
  "constructor",
  "prototype",
];

const queryNames = [
  "flow",
  "id",
  "return_to",
  "refresh",
  "aal",
  "via",
  "token",
  "code",
  "login_challenge",
  "consent_challenge",
  "logout_challenge",
  "challenge",
  "page_size",
  "page_token",
  "per_page",
  "page",
  "active",
  "expand",
  "credentials_identifier",
  "preview_credentials_identifier_similar",
  "include_credential",
  "ids",
  "to",
  "status",
  "recipient",
  "client_id",
  "client_name",
  "owner",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "nonce",
  "prompt",
  "subject",
  "sid",
  "all",
  "init_code",
  "return_session_token_exchange_code",
  "organization",
  "__proto__",
];

/** JSON values of every type, including the awkward ones. */
const jsonValue = fc.oneof(
  fc.json({ depthSize: "small" }).map((text) => JSON.parse(text) as unknown),
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e308,
    "",
    " ",
    "\u0000",
    "x".repeat(2000),
    [],
    {},
    [null],
    { __proto__: { polluted: true } },
    { "": "" },
  ),
);

function withIds<T>(
  ids: readonly string[],
  other: fc.Arbitrary<T | string>,
): fc.Arbitrary<T | string> {
  return fc.oneof(fc.constantFrom(...ids), other);
}

function percentEncodeSome(text: string): string {
  return encodeURIComponent(text).replace(/%2F/g, "/");
}

function pathParam(ids: readonly string[]): fc.Arbitrary<string> {
  return withIds(
    ids,
    fc.oneof(
      fc.constantFrom(...badIds),
      fc.uuid(),
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.string({ unit: "binary", maxLength: 20 }).map(percentEncodeSome),
    ),
  );
}

const badQueries = [
  "?",
  "?&",
  "?&&&==",
  "?=",
  "?%",
  "?%zz=%zz",
  "?flow=%E0%A4%A",
  "?a[b]=c&a[c][d]=e",
  "?__proto__[polluted]=1",
  "?constructor.prototype.x=1",
  "?flow=a&flow=b&flow=c",
  "?return_to=javascript:alert(1)",
  "?return_to=%2F%2Fevil.example",
  "?return_to=http://[::1",
  `?flow=${"x".repeat(6000)}`,
  `?${"a=1&".repeat(2000)}`,
  "?page_size=-1",
  "?page_size=1e9",
  "?page_size=NaN",
  "?page_token=%00",
  "?per_page=abc&page=-5",
  "?active=maybe",
  "?expand=nope&expand=",
  "?ids=not-a-uuid",
  "?#fragment",
];

function query(ids: readonly string[]): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...queryNames), fc.string({ maxLength: 12 })),
    withIds(
      ids,
      fc.oneof(
        fc.constantFrom(...badIds),
        fc.string({ maxLength: 60 }),
        fc.string({ unit: "binary", maxLength: 30 }),
        fc.uuid(),
      ),
    ),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 2, arbitrary: fc.constantFrom(...badQueries) },
    {
      weight: 5,
      arbitrary: fc
        .array(pair, { minLength: 1, maxLength: 5 })
        .map(
          (pairs) =>
            `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`,
        ),
    },
  );
}

const contentTypes = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=fuzz",
  "multipart/form-data; boundary=",
  "text/plain",
  "text/html",
  "application/xml",
  "application/octet-stream",
  "application/jwt",
  "application/merge-patch+json",
  "application/json-patch+json",
  "*/*",
  "",
  ";;;",
  "application/json; boundary=\u00ff",
  "garbage",
];

const accepts = [
  "application/json",
  "text/html",
  "*/*",
  "text/html, application/json;q=0.9",
  "application/json;q=0",
  "application/json;q=abc",
  "text/*;q=0.5, application/json",
  "",
  ",,,;;;",
  "image/png",
  "application/json;q=NaN, text/html;q=Infinity",
];

function cookie(ids: readonly string[], sessionToken: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      "ory_kratos_session=garbage",
      `ory_kratos_session=${"A".repeat(8000)}`,
      "ory_kratos_session=; csrf_token=",
      "csrf_token_806060ca5bf70dff3caa0e5c860002aade9d470a5a4dce73bcfa7ba10778f481=%zz",
      "=;=;=;",
      ";;;;",
      "a=b; a=c; a=d",
      "ory_kratos_session=\u00ff\u00fe",
      '"quoted"="value"',
      `${"c=1; ".repeat(500)}`,
      "_interaction=garbage; _session=garbage; _session.legacy=garbage",
      `ory_kratos_session=${sessionToken}`,
      `ory_kratos_session=${encodeURIComponent(sessionToken)}.garbage`,
    ),
    fc
      .tuple(fc.string({ maxLength: 20 }), withIds(ids, fc.string({ maxLength: 200 })))
      .map(([name, value]) => `${encodeURIComponent(name) || "x"}=${encodeURIComponent(value)}`),
  );
}

type Header = [string, string];

function headers(ids: readonly string[], sessionToken: string): fc.Arbitrary<Header[]> {
  const one: fc.Arbitrary<Header> = fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...accepts).map((v): Header => ["Accept", v]) },
    { weight: 15, arbitrary: cookie(ids, sessionToken).map((v): Header => ["Cookie", v]) },
    fc
      .oneof(
        fc.constantFrom(
          `Bearer ${sessionToken}`,
          "Bearer",
          "Bearer ",
          "Bearer \u00ff\u00fe",
          `Bearer ${"x".repeat(5000)}`,
          "Basic",
          "Basic %%%",
          "Basic Og==",
          `Basic ${Buffer.from("a:b:c").toString("base64")}`,
          "Negotiate abc",
        ),
        fc.string({ maxLength: 80 }).map((s) => `Bearer ${s}`),
      )
      .map((v): Header => ["Authorization", v]),
    withIds(ids, fc.oneof(fc.constantFrom(sessionToken, "", "x".repeat(4000)), fc.string())).map(
      (v): Header => ["X-Session-Token", String(v)],
    ),
    fc
      .constantFrom("1.2.3.4", "garbage", "::1, 127.0.0.1, evil", ", , ,", "999.999.999.999")
      .map((v): Header => ["X-Forwarded-For", v]),
    fc
      .constantFrom("evil.example", "", "127.0.0.1:1", "[::1")
      .map((v): Header => ["X-Forwarded-Host", v]),
    fc.constantFrom("gopher", "", "https,http").map((v): Header => ["X-Forwarded-Proto", v]),
    fc.constantFrom("https://evil.example", "null", "").map((v): Header => ["Origin", v]),
    fc.string({ maxLength: 80 }).map((v): Header => ["X-Correlation-Id", v]),
    // Over Node's 16 KiB header limit (rarely: the request never reaches a route).
    { weight: 1, arbitrary: fc.constant<Header>(["X-Huge", "a".repeat(20_000)]) },
    // CR/LF smuggled into a value: a second header line, or (bare CR, NUL) an invalid message.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "x\r\nX-Injected: 1",
          "x\r\nSet-Cookie: a=b",
          "x\rY",
          "x\nY",
          "x\u0000y",
          "x\r\n\r\nGET / HTTP/1.1",
        )
        .map((v): Header => ["X-Fuzz", v]),
    },
    fc
      .constantFrom("gzip", "br", "deflate", "identity;q=0", "x")
      .map((v): Header => ["Content-Encoding", v]),
    fc.constantFrom("*", 'W/"x"', "").map((v): Header => ["If-None-Match", v]),
  );
  return fc.array(one, { maxLength: 4 });
}

function formEncode(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`,
    )
    .join("&");
}

const flowMethods = [
  "password",
  "code",
  "totp",
  "lookup_secret",
  "webauthn",
  "passkey",
  "profile",
  "link",
  "oidc",
  "",
];

function body(
  ids: readonly string[],
): fc.Arbitrary<{ body?: string | Buffer; contentType?: string }> {
  const known = fc.dictionary(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...fieldNames) },
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof(jsonValue, fc.constantFrom(...ids)),
    { maxKeys: 6 },
  );
  // A self-service submission: a real method name, so the method's own decoding runs.
  const submission = fc
    .tuple(
      fc.constantFrom(...flowMethods),
      known,
      fc.constantFrom("application/json", "application/x-www-form-urlencoded"),
    )
    .map(([method, fields, contentType]) => {
      const value = { ...fields, method };
      return {
        body: contentType === "application/json" ? JSON.stringify(value) : formEncode(value),
        contentType,
      };
    });
  return fc.oneof(
    fc.constant({}),
    { weight: 3, arbitrary: submission },
    // Valid JSON of every type and shape, with known and unknown fields.
    fc.tuple(known, fc.constantFrom(...contentTypes)).map(([value, contentType]) => ({
      body: JSON.stringify(value),
      contentType,
    })),
    fc.tuple(jsonValue, fc.constantFrom(...contentTypes)).map(([value, contentType]) => ({
      body: JSON.stringify(value) ?? "",
      contentType,
    })),
    // Broken JSON.
    fc
      .constantFrom(
        "{",
        '{"method":',
        "[1,2",
        "nul",
        '"unterminated',
        "{'method':'password'}",
        '\ufeff{"method":"password"}',
        '{"a":1}garbage',
        "\u0000",
        '{"a":"\\ud800"}',
        '{"method":"password","method":"code"}',
        "[".repeat(50_000),
        `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
        "1e99999",
      )
      .map((text) => ({ body: text, contentType: "application/json" })),
    // Broken and odd form encodings.
    fc
      .constantFrom(
        "a=%zz&b",
        "method=password&identifier=%ff",
        "=&=&=",
        "&&&",
        "method",
        "traits=%7Bnot-json",
        "traits.email=a&traits.email.x=b&traits=1",
        "traits.__proto__.polluted=1",
        `identifier=${"a".repeat(40_000)}`,
        "method=password&password=%00",
      )
      .map((text) => ({ body: text, contentType: "application/x-www-form-urlencoded" })),
    known.map((fields) => ({
      body: formEncode(fields),
      contentType: "application/x-www-form-urlencoded",
    })),
    // Broken multipart.
    fc
      .constantFrom(
        '--fuzz\r\nContent-Disposition: form-data; name="method"\r\n\r\npassword\r\n--fuzz--\r\n',
        '--fuzz\r\nContent-Disposition: form-data; name="method"\r\n\r\npassword',
        "--other\r\n\r\n--other--",
        '--fuzz\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--fuzz--\r\n',
        "not multipart at all",
      )
      .map((text) => ({ body: text, contentType: "multipart/form-data; boundary=fuzz" })),
    // Over the body limit, and binary garbage.
    fc
      .constantFrom(bodyLimitBytes + 1, 200 * 1024, 2 * 1024 * 1024)
      .map((size) => ({ body: `{"a":"${"x".repeat(size)}"}`, contentType: "application/json" })),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => ({
      body: Buffer.from(bytes),
      contentType: "application/json",
    })),
    fc.string({ maxLength: 300 }).map((text) => ({ body: text })),
  );
}

function target(route: Route, ids: readonly string[]): fc.Arbitrary<string> {
  const params = route.segments.map((segment) =>
    segment === null ? pathParam(ids) : fc.constant(segment),
  );
  const path = fc.tuple(...params).map((segments) => `/${segments.join("/")}`);
  const traversal = fc
    .constantFrom(
      "/../../../../etc/passwd",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/..%2f..%2f",
      "/./././",
      "//",
      "/%00",
      "/~",
      "/.git/config",
      "/;jsessionid=1",
    )
    .map((suffix) => ({ suffix }));
  return fc
    .tuple(
      path,
      fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, traversal),
      query(ids),
      // Self-service routes mostly get a real flow id, so the flow's own code runs.
      fc.constantFrom(...ids),
      fc.boolean(),
    )
    .map(([base, extra, q, id, withFlow]) => {
      const flow = withFlow && base.startsWith("/self-service/") ? `flow=${id}` : "";
      const joined = flow ? (q ? `${q}&${flow}` : `?${flow}`) : q;
      return `${base}${extra?.suffix ?? ""}${joined}`;
    })
    .chain((full) =>
      fc.oneof(
        { weight: 20, arbitrary: fc.constant(full) },
        // Absolute-form and odd request targets.
        fc.constant(`http://127.0.0.1${full}`),
        fc.constant(full.replace(/^\//, "")),
        fc.constant(`/${full}`),
      ),
    );
}

/** One fuzz case: a route of the target, broken in up to every way at once. */
export function fuzzCase(fuzz: FuzzTarget): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...fuzz.routes).chain((route) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 6, arbitrary: fc.constant(route.method) },
          { weight: 2, arbitrary: fc.constantFrom(...methods) },
          { weight: 1, arbitrary: fc.constantFrom("PROPFIND", "TRACE", "CONNECT", "FOO", "get") },
        ),
        target: target(route, fuzz.ids),
        headers: headers(fuzz.ids, fuzz.sessionToken),
        body: body(fuzz.ids),
        chunked: fc.boolean(),
      })
      .map(({ method, target: requestTarget, headers: extra, body: payload, chunked }) => {
        const list: [string, string][] = [...extra];
        if (payload.contentType !== undefined) list.push(["Content-Type", payload.contentType]);
        return {
          route,
          request: {
            method,
            target: requestTarget,
            headers: list,
            body: payload.body,
            chunked: chunked && payload.body !== undefined,
          },
        };
      }),
  );
}

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
export function problemWith(
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
export function describe(route: Route, request: RawRequest): string {
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
