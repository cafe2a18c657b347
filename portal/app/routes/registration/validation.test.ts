import { describe, expect, it } from "vitest";
import { messages } from "../../validation/messages.ts";
import { validateRegistration } from "./validation.ts";

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
