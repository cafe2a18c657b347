import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path.ts";

const site = "http://localhost:4000";

describe("safeReturnPath", () => {
  it("keeps paths on this site with their query and fragment", () => {
    expect(safeReturnPath("/agency-selection", site)).toBe("/agency-selection");
    expect(safeReturnPath("/?tab=recent#top", site)).toBe("/?tab=recent#top");
    expect(safeReturnPath("/a/../b", site)).toBe("/b");
  });

  it("refuses anything that could leave the site", () => {
    for (const value of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example/",
      "/\t/evil.example/",
      "javascript:alert(1)",
      "agency-selection",
      "",
      undefined,
      ["/agency-selection"],
    ]) {
      expect(safeReturnPath(value, site)).toBeUndefined();
    }
  });
});
