import { describe, expect, it } from "vitest";
import { commaList, duration, flag, httpUrl, limitCount, port, positive } from "./env-values.ts";

describe("environment value kinds", () => {
  it("reads a flag as true/false/1/0 in any case and refuses anything else", () => {
    expect(flag.parse(" TRUE ")).toBe(true);
    expect(flag.parse("1")).toBe(true);
    expect(flag.parse("False")).toBe(false);
    expect(flag.parse("0")).toBe(false);
    expect(flag.safeParse("yes").error?.issues[0]?.message).toBe("must be true or false");
  });

  it("takes ports from 0 to 65535", () => {
    expect(port.parse("0")).toBe(0);
    expect(port.parse("65535")).toBe(65535);
    expect(port.safeParse("65536").success).toBe(false);
    expect(port.safeParse("80.5").success).toBe(false);
  });

  it("takes only absolute http(s) URLs, trimmed", () => {
    expect(httpUrl.parse(" https://example.test/x ")).toBe("https://example.test/x");
    for (const bad of ["/relative", "ftp://example.test/", "not a url"]) {
      expect(httpUrl.safeParse(bad).error?.issues[0]?.message).toBe(
        "must be an absolute http(s) URL",
      );
    }
  });

  it("takes limit counts from 0 (off) to a million", () => {
    expect(limitCount.parse("0")).toBe(0);
    expect(limitCount.safeParse("-1").error?.issues[0]?.message).toBe("must be 0 (off) or more");
    expect(limitCount.safeParse("1000001").error?.issues[0]?.message).toBe(
      "must be at most 1000000",
    );
  });

  it("reads Go durations within the given bounds and names the refused value", () => {
    const lifespan = duration(positive, "a positive duration like 1h");
    expect(lifespan.parse("1h30m")).toBe(5_400_000);
    expect(lifespan.safeParse("0s").error?.issues[0]?.message).toBe(
      '"0s" is not a positive duration like 1h',
    );
    expect(lifespan.safeParse("ten").error?.issues[0]?.message).toBe(
      '"ten" is not a positive duration like 1h',
    );
  });

  it("splits comma lists, dropping blanks", () => {
    expect(commaList(" a, b ,,c ,")).toEqual(["a", "b", "c"]);
  });
});
