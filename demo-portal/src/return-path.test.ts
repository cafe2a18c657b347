import { describe, expect, it } from "vitest";
import {
  browserDestination,
  redirectTricks,
} from "../../identity-server/src/test-support/redirect-tricks.ts";
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
      "/.//evil.example/",
      "/%2e//evil.example/",
      "/x/..//evil.example/",
      "javascript:alert(1)",
      "agency-selection",
      "",
      undefined,
      ["/agency-selection"],
    ]) {
      expect(safeReturnPath(value, site), JSON.stringify(value)).toBeUndefined();
    }
  });

  it("answers every trick of the shared table with a path on this site or a refusal", () => {
    const page = `${site}/auth/callback?code=c&state=s`;
    for (const { value, why } of redirectTricks(site)) {
      const path = safeReturnPath(value, site);
      if (path === undefined) continue;
      const label = `${JSON.stringify(value)} (${why}) -> ${path}`;
      expect(browserDestination(path, page), label).toBe(site);
      expect(path.startsWith("/") && !path.startsWith("//"), label).toBe(true);
    }
  });
});
