import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

function tokenizerError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("session tokenizer configuration", () => {
  it("has no templates and no key file by default", () => {
    expect(loadConfig({}).sessionTokenizer).toEqual({ templates: {}, keyFile: undefined });
  });

  it("reads templates with Kratos' ttl default of one minute", () => {
    const config = loadConfig({
      IDENTITY_SESSION_TOKENIZER_TEMPLATES: JSON.stringify({
        short: { ttl: "10m", subject_source: "id" },
        "plain.default_1": {},
      }),
      IDENTITY_SESSION_TOKENIZER_KEY_FILE: "keys/tokenizer.json",
    });
    expect(config.sessionTokenizer).toEqual({
      templates: {
        short: { ttlMs: 600_000, subjectSource: "id" },
        "plain.default_1": { ttlMs: 60_000, subjectSource: "id" },
      },
      keyFile: path.resolve("keys/tokenizer.json"),
    });
  });

  it("names the variable and the problem for bad templates", () => {
    const cases: [string, string][] = [
      ["not json", "must be a JSON object of templates"],
      ["[]", "must be a JSON object of templates"],
      ['{"a b":{}}', 'template name "a b" may only use'],
      ['{"t":{"ttl":"soon"}}', 't.ttl: ttl "soon" is not a positive duration'],
      ['{"t":{"ttl":"0s"}}', 'ttl "0s" is not a positive duration'],
      ['{"t":{"subject_source":"external_id"}}', 'subject_source must be "id"'],
      ['{"t":{"claims_mapper_url":"file:///m.jsonnet"}}', "claims_mapper_url"],
      ['{"t":{"jwks_url":"file:///k.json"}}', "jwks_url"],
    ];
    for (const [value, problem] of cases) {
      const message = tokenizerError({ IDENTITY_SESSION_TOKENIZER_TEMPLATES: value });
      expect(message, value).toContain("IDENTITY_SESSION_TOKENIZER_TEMPLATES: ");
      expect(message, value).toContain(problem);
    }
  });
});
