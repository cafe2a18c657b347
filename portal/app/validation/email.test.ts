import { describe, expect, it } from "vitest";
import { isValidEmail, validateConfirmEmail, validateEmail } from "./email.ts";
import { messages } from "./messages.ts";

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
