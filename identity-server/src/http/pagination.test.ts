import { describe, expect, it } from "vitest";
import {
  decodeKeysetToken,
  encodeKeysetToken,
  encodeOffsetToken,
  keysetLinks,
  offsetPageHeaders,
  parseKeysetPageSize,
  parseOffsetPage,
} from "./pagination.ts";

const rels = (link: string) => link.split(",").map((part) => /rel="(\w+)"/.exec(part)?.[1]);

describe("offset pagination (GET /sessions, identity sessions)", () => {
  it("encodes offsets as ory/x page tokens", () => {
    // The tokens in ory/x's own snapshots for offsets 0, 50 and 100.
    expect(encodeOffsetToken(0)).toBe("eyJvZmZzZXQiOiIwIiwidiI6Mn0");
    expect(encodeOffsetToken(50)).toBe("eyJvZmZzZXQiOiI1MCIsInYiOjJ9");
    expect(encodeOffsetToken(100)).toBe("eyJvZmZzZXQiOiIxMDAiLCJ2IjoyfQ");
  });

  it("reads page/per_page, or page_token/page_size when either is given", () => {
    expect(parseOffsetPage({})).toEqual({ page: 0, perPage: 250 });
    expect(parseOffsetPage({ page: "2", per_page: "10" })).toEqual({ page: 2, perPage: 10 });
    expect(parseOffsetPage({ per_page: "5000" })).toEqual({ page: 0, perPage: 1000 });
    expect(parseOffsetPage({ per_page: "0", page: "-3" })).toEqual({ page: 0, perPage: 1 });
    expect(parseOffsetPage({ page_size: "50", page_token: encodeOffsetToken(100) })).toEqual({
      page: 2,
      perPage: 50,
    });
    expect(parseOffsetPage({ page_size: "50", page_token: "garbage" })).toEqual({
      page: 0,
      perPage: 50,
    });
  });

  it("links first/next/prev/last as ory/x does, relative to the request", () => {
    const at = (page: number, total: number) =>
      offsetPageHeaders("/sessions?foo=bar", total, { page, perPage: 50 });
    expect(rels(at(0, 300).link)).toEqual(["next", "last"]);
    expect(rels(at(2, 300).link)).toEqual(["first", "next", "prev", "last"]);
    expect(rels(at(5, 300).link)).toEqual(["first", "prev"]);
    expect(at(0, 3).link).toBe(
      `</sessions?foo=bar&page=0&page_size=3&page_token=${encodeOffsetToken(0)}&per_page=3>; rel="first"`,
    );
    expect(at(0, 300).link.split(",")[0]).toBe(
      `</sessions?foo=bar&page=1&page_size=50&page_token=${encodeOffsetToken(50)}&per_page=50>; rel="next"`,
    );
    expect(at(0, 0).totalCount).toBe("0");
    expect(rels(at(0, 0).link)).toEqual(["first", "next", "prev"]);
  });
});

describe("keyset pagination (GET /admin/sessions)", () => {
  it("round-trips its page tokens and refuses crafted ones", () => {
    const cursor = {
      createdAt: "2026-01-02T03:04:05.678Z",
      id: "8f1e5c9b-8d3c-4f1e-9a57-0c1f0e6e3b21",
    };
    expect(decodeKeysetToken(encodeKeysetToken(cursor))).toEqual(cursor);
    expect(() => decodeKeysetToken("bm90IGEgdG9rZW4")).toThrow(
      expect.objectContaining({
        code: 400,
        reason: "The page token is invalid, do not craft your own page tokens",
      }),
    );
  });

  it("links the first page always and the next one when there is more", () => {
    expect(rels(keysetLinks("/admin/sessions?active=true", 2, undefined))).toEqual(["first"]);
    const next = {
      createdAt: "2026-01-02T03:04:05.678Z",
      id: "8f1e5c9b-8d3c-4f1e-9a57-0c1f0e6e3b21",
    };
    const link = keysetLinks("/admin/sessions", 2, next);
    expect(rels(link)).toEqual(["first", "next"]);
    expect(link).toContain(`page_token=${encodeURIComponent(encodeKeysetToken(next))}`);
  });

  it("sizes pages 250 by default and 1000 at most", () => {
    expect(parseKeysetPageSize({})).toBe(250);
    expect(parseKeysetPageSize({ page_size: "5" })).toBe(5);
    expect(parseKeysetPageSize({ page_size: "5000" })).toBe(1000);
    expect(() => parseKeysetPageSize({ page_size: "many" })).toThrow();
  });
});
