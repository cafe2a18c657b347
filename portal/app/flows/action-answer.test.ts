import { describe, expect, it } from "vitest";
import { answerOr } from "./action-answer.ts";

describe("answerOr", () => {
  it("takes the action's field when the action answered with it", () => {
    const answer: { flow: string } | { notice: string } = { flow: "from action" };
    expect(answerOr(answer, "flow", "from loader")).toBe("from action");
  });

  it("keeps the loader's when the action answered without the field or not at all", () => {
    const answer: { flow: string } | { notice: string } = { notice: "n" };
    expect(answerOr(answer, "flow", "from loader")).toBe("from loader");
    expect(answerOr<{ flow: string }, "flow", string>(undefined, "flow", "from loader")).toBe(
      "from loader",
    );
  });

  it("passes on a field the action set to undefined (it answered, with no value)", () => {
    const answer: { notice?: string } = { notice: undefined };
    expect(answerOr(answer, "notice", "from loader")).toBeUndefined();
  });
});
