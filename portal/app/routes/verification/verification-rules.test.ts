import { describe, expect, it } from "vitest";
import { checkVerification } from "./verification-rules.ts";

/** Stands in for the phone parser: only this one number is valid. */
const phone = (raw: string) =>
  /^1?2025550123$/.test(raw.replace(/\D/g, "")) ? "+12025550123" : undefined;

describe("checkVerification (spec §5 Verification)", () => {
  it("sends a code when there is one, even with an address beside it", () => {
    expect(checkVerification({ channel: "email", code: " 123456 ", address: "x" }, phone)).toEqual({
      kind: "code",
      code: "123456",
    });
  });

  it("in e-mail mode sends to a valid e-mail, lowercased, and refuses anything else", () => {
    expect(checkVerification({ channel: "email", address: " Jane@Example.GOV " }, phone)).toEqual({
      kind: "send",
      address: "jane@example.gov",
    });
    expect(checkVerification({ channel: "email", address: "+1 202 555 0123" }, phone)).toEqual({
      kind: "invalid",
      errors: { email: [expect.objectContaining({ key: "kratos.4000001.email" })] },
    });
  });

  it("in phone mode sends to a valid number as E.164, and refuses anything else", () => {
    expect(checkVerification({ channel: "sms", address: "(202) 555-0123" }, phone)).toEqual({
      kind: "send",
      address: "+12025550123",
    });
    expect(checkVerification({ channel: "sms", address: "jane@example.gov" }, phone)).toEqual({
      kind: "invalid",
      errors: { email: [expect.objectContaining({ key: "kratos.4000001.phone" })] },
    });
  });

  it("asks for a code or an address of the mode when both fields are empty", () => {
    expect(checkVerification({ channel: "sms", code: "", address: "" }, phone)).toEqual({
      kind: "invalid",
      errors: {
        code: [expect.objectContaining({ key: "validation.codeOrPhone" })],
        email: [expect.objectContaining({ key: "validation.codeOrPhone" })],
      },
    });
    expect(checkVerification({ channel: "email", code: "", address: " " }, phone)).toMatchObject({
      errors: {
        code: [{ key: "validation.codeOrEmail" }],
        email: [{ key: "validation.codeOrEmail" }],
      },
    });
  });

  it("marks the one field shown as required when only one is", () => {
    expect(checkVerification({ channel: "email", code: "" }, phone)).toEqual({
      kind: "invalid",
      errors: { code: [expect.objectContaining({ key: "kratos.4000002" })] },
    });
    expect(checkVerification({ channel: "sms", address: "" }, phone)).toEqual({
      kind: "invalid",
      errors: { email: [expect.objectContaining({ key: "kratos.4000002" })] },
    });
  });
});
