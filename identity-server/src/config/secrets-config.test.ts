import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

const a = "a".repeat(32);
const b = "b".repeat(40);

describe("IDENTITY_SECRETS", () => {
  it("is a comma-separated list, newest first; unset means the secret generated into the data dir", () => {
    expect(loadConfig({ IDENTITY_SECRETS: ` ${b} , ${a} ` }).secrets).toEqual([b, a]);
    expect(loadConfig({}).secrets).toBeUndefined();
  });

  it("takes the deprecated IDENTITY_SECRET as a one-item list, commas and all", () => {
    expect(loadConfig({ IDENTITY_SECRET: `${a},x` }).secrets).toEqual([`${a},x`]);
  });

  it("refuses short or repeated secrets and both variables at once, naming the variable", () => {
    expect(() => loadConfig({ IDENTITY_SECRETS: `${b},short` })).toThrow(
      /IDENTITY_SECRETS: each secret must be at least 32 characters long/,
    );
    expect(() => loadConfig({ IDENTITY_SECRETS: `${a},${b},${a}` })).toThrow(
      /IDENTITY_SECRETS: must not name a secret twice/,
    );
    expect(() => loadConfig({ IDENTITY_SECRETS: " , " })).toThrow(
      /IDENTITY_SECRETS: must name at least one secret/,
    );
    expect(() => loadConfig({ IDENTITY_SECRETS: b, IDENTITY_SECRET: a })).toThrow(
      /IDENTITY_SECRET: is the deprecated form of IDENTITY_SECRETS/,
    );
  });
});
