import fc from "fast-check";
import { bodyLimitBytes } from "../http/api-listener-options.ts";
import { contentTypes, fieldNames, flowMethods } from "./fuzz-values.ts";

// Request bodies for the fuzz requests: JSON and form bodies of every shape, and broken ones.

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

function formEncode(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`,
    )
    .join("&");
}

export function body(
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
