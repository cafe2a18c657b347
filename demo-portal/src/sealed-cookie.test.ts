import { describe, expect, it } from "vitest";
import { createSealer } from "./sealed-cookie.ts";

const secret = "a-cookie-secret-of-at-least-32-characters";

describe("sealed cookies", () => {
  it("open what they sealed, without showing it", () => {
    const sealer = createSealer(secret, "demo_login");
    const sealed = sealer.seal({ state: "visible-state" }, 60);
    expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain("visible-state");
    expect(sealer.open(sealed)).toEqual({ state: "visible-state" });
  });

  it("refuse altered values, other keys, other purposes and expired values", () => {
    let now = 1_000_000;
    const sealer = createSealer(secret, "demo_login", () => now);
    const sealed = sealer.seal("x", 60);
    const raw = Buffer.from(sealed, "base64url");
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(sealer.open(raw.toString("base64url"))).toBeUndefined();
    expect(
      createSealer("another-secret-of-at-least-32-characters", "demo_login").open(sealed),
    ).toBeUndefined();
    expect(createSealer(secret, "demo_logout").open(sealed)).toBeUndefined();
    expect(sealer.open("garbage")).toBeUndefined();
    expect(sealer.open(undefined)).toBeUndefined();
    now += 61_000;
    expect(sealer.open(sealed)).toBeUndefined();
  });
});
