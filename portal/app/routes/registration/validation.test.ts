import { describe, expect, it } from "vitest";
import {
  isStrongPassword,
  isValidEmail,
  messages,
  passwordStrengthId,
  validateConfirmEmail,
  validateConfirmPassword,
  validateEmail,
  validatePassword,
  validateRegistration,
} from "./validation.ts";

const label63 = "a".repeat(63);
const label64 = "a".repeat(64);

describe("isValidEmail", () => {
  it.each([
    "jane@example.gov",
    "jane.doe+portal@mail.example.gov",
    "o'brien@example.ie",
    `jane@${label63}.gov`,
    `jane@sub.${label63}.example`,
    "josé@correo.es",
  ])("accepts %s", (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ["no @", "jane.example.gov"],
    ["empty local part", "@example.gov"],
    ["no domain", "jane@"],
    ["a single label", "jane@localhost"],
    ["a 64-character label", `jane@${label64}.gov`],
    ["a 64-character inner label", `jane@sub.${label64}.gov`],
    ["an empty label", "jane@example..gov"],
    ["a label starting with a hyphen", "jane@-example.gov"],
    ["a label ending with a hyphen", "jane@example-.gov"],
    ["whitespace in the local part", "ja ne@example.gov"],
    ["two @", "ja@ne@example.gov"],
  ])("rejects %s", (_why, email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe("validateEmail", () => {
  it("trims before checking", () => {
    expect(validateEmail("  jane@example.gov \t")).toEqual([]);
  });

  it("asks for a value when empty or blank (4000002)", () => {
    expect(validateEmail("")).toEqual([messages.required]);
    expect(validateEmail("   ")).toEqual([messages.required]);
    expect(messages.required).toMatchObject({ id: 4000002, key: "kratos.4000002" });
  });

  it("reports a malformed address (4000001, e-mail wording)", () => {
    expect(validateEmail("jane@")).toEqual([messages.invalidEmail]);
    expect(messages.invalidEmail).toMatchObject({ id: 4000001, key: "kratos.4000001.email" });
  });
});

describe("validateConfirmEmail", () => {
  it("accepts the same address in another case and with spaces around it", () => {
    expect(validateConfirmEmail("Jane@Example.gov", "  jane@example.GOV ")).toEqual([]);
  });

  it("says the e-mails must match when they differ", () => {
    expect(validateConfirmEmail("jane@example.gov", "jane@example.org")).toEqual([
      messages.emailsMustMatch,
    ]);
  });

  it("is required", () => {
    expect(validateConfirmEmail("jane@example.gov", " ")).toEqual([messages.required]);
  });
});

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

describe("validateRegistration", () => {
  it("finds nothing wrong with a complete, consistent form", () => {
    expect(
      validateRegistration({
        email: "jane@example.gov",
        confirmEmail: "JANE@example.gov",
        password: "Correct-Horse-7",
        confirmPassword: "Correct-Horse-7",
      }),
    ).toEqual({});
  });

  it("puts each message on its field", () => {
    expect(
      validateRegistration({
        email: "jane@",
        confirmEmail: "",
        password: "short",
        confirmPassword: "other",
      }),
    ).toEqual({
      "traits.email": [messages.invalidEmail],
      confirm_email: [messages.required],
      password: [messages.passwordStrength],
      confirm_password: [messages.passwordsMustMatch],
    });
  });
});
