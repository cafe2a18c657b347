import { describe, expect, it } from "vitest";
import { codeInputNode } from "./nodes.ts";

// Kratos' code strategy: recovery codes are six digits, verification codes only get the hint.

describe("codeInputNode", () => {
  it("constrains a recovery code to digits and its length, in Kratos' attribute order", () => {
    const node = codeInputNode("recovery", "12");
    expect(Object.entries(node.attributes)).toEqual([
      ["name", "code"],
      ["type", "text"],
      ["value", "12"],
      ["required", true],
      ["autocomplete", "one-time-code"],
      ["pattern", "[0-9]+"],
      ["disabled", false],
      ["maxlength", 6],
      ["node_type", "input"],
    ]);
    expect(node.meta.label?.id).toBe(1070010);
  });

  it("gives a verification code only the autocomplete hint", () => {
    const node = codeInputNode("verification");
    expect(Object.keys(node.attributes)).toEqual([
      "name",
      "type",
      "required",
      "autocomplete",
      "disabled",
      "node_type",
    ]);
    expect(node.meta.label?.id).toBe(1070011);
  });
});
