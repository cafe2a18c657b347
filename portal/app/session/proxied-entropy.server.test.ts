import { describe, expect, it } from "vitest";
import { proxiedEntropy } from "./proxied-entropy.server.ts";

describe("the fingerprint the identity proxy passes on", () => {
  it("comes from the cookie the portal's script keeps", () => {
    expect(
      proxiedEntropy({ cookie: "lang=en; x-session-entropy=0123456789abcdef; theme=dark" }),
    ).toBe("0123456789abcdef");
  });

  it("prefers a header a script sent itself", () => {
    expect(
      proxiedEntropy({ "x-session-entropy": "fromheader", cookie: "x-session-entropy=fromcookie" }),
    ).toBe("fromheader");
  });

  it("is absent without either, or when the value is no fingerprint", () => {
    expect(proxiedEntropy({})).toBeUndefined();
    expect(proxiedEntropy({ cookie: "lang=en" })).toBeUndefined();
    expect(proxiedEntropy({ cookie: "x-session-entropy=<script>" })).toBeUndefined();
    expect(proxiedEntropy({ cookie: `x-session-entropy=${"a".repeat(300)}` })).toBeUndefined();
  });
});
