import { describe, expect, it } from "vitest";
import { passwordPolicyViolation } from "./policy.ts";

describe("password policy", () => {
  it("counts the minimum length in bytes (4000032)", () => {
    expect(passwordPolicyViolation("short", "a@example.com", 12)).toMatchObject({
      id: 4000032,
      text: "The password must be at least 12 characters long, but got 5.",
      context: { min_length: 12, actual_length: 5 },
    });
    // Six two-byte characters are 12 bytes, as Kratos counts them.
    expect(passwordPolicyViolation("ééééééxyz-42", "a@example.com", 12)).toBeUndefined();
  });

  it("rejects passwords close to the identifier (4000031)", () => {
    expect(passwordPolicyViolation("Jane.Doe@Example.com1", "jane.doe@example.com", 12)?.id).toBe(
      4000031,
    );
    expect(passwordPolicyViolation("Xjane.doe@example!", "jane.doe@example.com", 12)?.id).toBe(
      4000031,
    );
    expect(
      passwordPolicyViolation("unrelated-Horse-77", "jane.doe@example.com", 12),
    ).toBeUndefined();
  });

  it("rejects passwords on the common/breached list (4000034), case-insensitively", () => {
    expect(passwordPolicyViolation("qwerty123456", "a@example.com", 12)).toMatchObject({
      id: 4000034,
      context: { breaches: 1 },
    });
    expect(passwordPolicyViolation("QWERTY123456", "a@example.com", 12)?.id).toBe(4000034);
  });
});
