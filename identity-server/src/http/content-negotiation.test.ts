import { describe, expect, it } from "vitest";
import { negotiateContentType } from "./content-negotiation.ts";

const offers = ["text/html", "text/*", "*/*", "application/json"];
const pick = (accept: string | undefined) => negotiateContentType(accept, offers, "text/html");

describe("content negotiation (as golang/gddo, which Kratos uses)", () => {
  it("defaults to HTML without Accept and for browsers", () => {
    expect(pick(undefined)).toBe("text/html");
    expect(pick("*/*")).toBe("text/html");
    expect(pick("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(
      "text/html",
    );
  });

  it("chooses JSON when it is asked for explicitly", () => {
    expect(pick("application/json")).toBe("application/json");
    expect(pick("application/json, text/plain, */*")).toBe("application/json");
    expect(pick("text/html;q=0.5, application/json")).toBe("application/json");
  });

  it("ignores offers the client refuses with q=0", () => {
    expect(pick("application/json;q=0, text/html")).toBe("text/html");
  });
});
