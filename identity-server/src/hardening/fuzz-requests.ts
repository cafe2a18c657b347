import fc from "fast-check";
import type { FuzzTarget, Route } from "./fuzz-targets.ts";
import { body } from "./fuzz-bodies.ts";
import type { RawRequest } from "./raw-http.ts";
import { accepts, badIds, badQueries, methods, queryNames } from "./fuzz-values.ts";

// Bad requests for every route of every listener: each part of a request broken in many ways.

export interface FuzzCase {
  route: Route;
  request: RawRequest;
}

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
