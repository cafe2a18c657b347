import { describe, expect, it } from "vitest";
import { formatTimestamp } from "./format-timestamp.ts";

describe("formatTimestamp", () => {
  it("writes en-US long dates with a 12-hour clock and the zone", () => {
    expect(formatTimestamp("2026-06-05T15:04:00Z", "en", "UTC")).toBe(
      "June 5, 2026 at 3:04 PM UTC",
    );
    expect(formatTimestamp("2026-12-24T00:30:00Z", "en", "America/New_York")).toBe(
      "December 23, 2026 at 7:30 PM EST",
    );
  });

  it("writes Spanish dates the Spanish way", () => {
    // The joining words between date and time vary with the ICU data ("," or "a las").
    expect(formatTimestamp("2026-06-05T15:04:00Z", "es", "UTC")).toMatch(
      /^5 de junio de 2026(,| a las) 15:04 UTC$/,
    );
  });

  it("gives nothing for a value that is no time", () => {
    expect(formatTimestamp("yesterday", "en", "UTC")).toBeUndefined();
  });
});
