import { describe, expect, it } from "vitest";
import { messages, passwordStrengthId } from "./messages.ts";
import { isStrongPassword, validateConfirmPassword, validatePassword } from "./password.ts";

describe("isStrongPassword", () => {
  const strong = "Correct-Horse-7";

  it("accepts 12+ characters with a digit, a special, a lower- and an uppercase letter", () => {
    expect(isStrongPassword(strong)).toBe(true);
    expect(isStrongPassword("Abcdefghij1!")).toBe(true);
  });

  it.each([
    ["11 characters", "Abcdefghi1!"],
    ["no digit", "Correct-Horse-x"],
    ["no special character", "CorrectHorse77"],
    ["only an underscore as special (a word character)", "Correct_Horse7"],
    ["no lowercase letter", "CORRECT-HORSE-7"],
    ["no uppercase letter", "correct-horse-7"],
  ])("rejects a password with %s", (_why, password) => {
    expect(isStrongPassword(password)).toBe(false);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(isStrongPassword("Ab1!😀😀😀😀😀😀😀")).toBe(false);
    expect(isStrongPassword("Ab1!😀😀😀😀😀😀😀😀")).toBe(true);
  });
});

describe("validatePassword", () => {
  it("reports the strength rule with message id 203", () => {
    expect(validatePassword("weak")).toEqual([messages.passwordStrength]);
    expect(messages.passwordStrength).toMatchObject({
      id: passwordStrengthId,
      key: "validation.passwordStrength",
    });
    expect(passwordStrengthId).toBe(203);
  });

  it("does not trim passwords: spaces are characters", () => {
    expect(validatePassword(" Correct-Horse-7 ")).toEqual([]);
  });

  it("is required", () => {
    expect(validatePassword("")).toEqual([messages.required]);
  });
});

describe("validateConfirmPassword", () => {
  it("accepts an exact copy", () => {
    expect(validateConfirmPassword("Correct-Horse-7", "Correct-Horse-7")).toEqual([]);
  });

  it("is case-sensitive and says the passwords must match", () => {
    expect(validateConfirmPassword("Correct-Horse-7", "correct-horse-7")).toEqual([
      messages.passwordsMustMatch,
    ]);
  });

  it("is required", () => {
    expect(validateConfirmPassword("Correct-Horse-7", "")).toEqual([messages.required]);
  });
});
