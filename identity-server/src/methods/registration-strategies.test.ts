import { describe, expect, it } from "vitest";
import { FlowBody } from "../http/flow-body.ts";
import { registrationStrategies } from "./registration-strategies.ts";

// Which registration strategy a submission is for is decided from plain values, before any runs.

const responsibleFor = (values: Record<string, unknown>) =>
  registrationStrategies().find((s) => s.responsible(FlowBody.of(values)))?.id;

describe("the registration strategy registry", () => {
  it("lists the strategies in Kratos' order, profile first", () => {
    expect(registrationStrategies().map((s) => [s.id, s.group])).toEqual([
      ["profile", "default"],
      ["password", "password"],
      ["passkey", "passkey"],
    ]);
  });

  it("hands a submission to the strategy its method names; profile takes none (one-step only)", () => {
    expect(responsibleFor({ method: "password", password: "x" })).toBe("password");
    expect(responsibleFor({ method: "profile", "traits.email": "a@example.org" })).toBeUndefined();
    expect(responsibleFor({ method: "code" })).toBeUndefined();
    expect(responsibleFor({ password: "x" })).toBeUndefined();
  });
});
