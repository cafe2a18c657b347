import { describe, expect, it } from "vitest";
import { audienceNotAllowed } from "./audience-matching.ts";

// Cases from fosite's audience_strategy_test.go (DefaultAudienceMatchingStrategy).
describe("audience matching as fosite's default strategy", () => {
  it("allows the whitelisted audience and paths below it", () => {
    const whitelist = ["https://cloud.ory.sh/api/users"];
    expect(audienceNotAllowed(whitelist, [])).toBeUndefined();
    expect(audienceNotAllowed(whitelist, ["https://cloud.ory.sh/api/users"])).toBeUndefined();
    expect(audienceNotAllowed(whitelist, ["https://cloud.ory.sh/api/users/"])).toBeUndefined();
    expect(audienceNotAllowed(whitelist, ["https://cloud.ory.sh/api/users/1234"])).toBeUndefined();
    expect(audienceNotAllowed(["https://a/"], ["https://a/b"])).toBeUndefined();
    expect(audienceNotAllowed(["api"], ["api"])).toBeUndefined();
  });

  it("refuses other hosts, schemes and sibling paths", () => {
    const whitelist = ["https://cloud.ory.sh/api/users"];
    expect(audienceNotAllowed(whitelist, ["https://cloud.ory.sh/api/users1234"])).toBe(
      "https://cloud.ory.sh/api/users1234",
    );
    expect(audienceNotAllowed(whitelist, ["http://cloud.ory.sh/api/users"])).toBe(
      "http://cloud.ory.sh/api/users",
    );
    expect(audienceNotAllowed(whitelist, ["https://evil.sh/api/users"])).toBe(
      "https://evil.sh/api/users",
    );
    expect(audienceNotAllowed(["https://api.a"], ["https://api.a", "https://evil"])).toBe(
      "https://evil",
    );
    expect(audienceNotAllowed([], ["api"])).toBe("api");
  });
});
