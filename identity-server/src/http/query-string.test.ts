import { afterEach, describe, expect, it, vi } from "vitest";
import { parseQueryString } from "./query-string.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("parseQueryString", () => {
  it("reads no parameters when there is no query (every whoami)", () => {
    const built = vi.spyOn(globalThis, "URLSearchParams");
    parseQueryString("");
    expect(built).not.toHaveBeenCalled();
    parseQueryString("a=1");
    expect(built).toHaveBeenCalledTimes(1);
  });

  it("answers an empty query with an empty object without a prototype", () => {
    const query = parseQueryString("");
    expect(Object.keys(query)).toEqual([]);
    expect(Object.getPrototypeOf(query)).toBeNull();
    // A fresh object each time: a handler that writes to its query does not reach the next one.
    expect(parseQueryString("")).not.toBe(query);
  });

  it("keeps a repeated key's first value, except the list parameters", () => {
    const query = parseQueryString("flow=a&flow=b&expand=x&expand=y&ids=1&return_to=%2Fx");
    expect({ ...query }).toEqual({
      flow: "a",
      expand: ["x", "y"],
      ids: "1",
      return_to: "/x",
    });
  });
});
