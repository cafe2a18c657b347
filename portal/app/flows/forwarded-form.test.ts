import { describe, expect, it } from "vitest";
import { forwardedForm } from "./forwarded-form.ts";

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

describe("forwardedForm", () => {
  it("forwards what was posted, whatever the method, without the portal's own fields", () => {
    expect(
      forwardedForm(
        form({
          csrf_token: "t",
          method: "webauthn",
          webauthn_login: "{}",
          remember_me: "true",
          "traits.name": "Jane",
        }),
        ["remember_me"],
      ),
    ).toEqual({
      csrf_token: "t",
      method: "webauthn",
      webauthn_login: "{}",
      traits: { name: "Jane" },
    });
  });

  it("trims typed identifiers and codes, never a password", () => {
    expect(
      forwardedForm(
        form({
          identifier: " jane@example.gov ",
          password: " secret ",
          code: " 1234 ",
          totp_code: " 123456 ",
          lookup_secret: " ab12 ",
        }),
        [],
      ),
    ).toEqual({
      identifier: "jane@example.gov",
      password: " secret ",
      code: "1234",
      totp_code: "123456",
      lookup_secret: "ab12",
    });
  });

  it("leaves out empty fields (also one that is only spaces once trimmed)", () => {
    expect(forwardedForm(form({ method: "code", code: "  ", resend: "code" }), [])).toEqual({
      method: "code",
      resend: "code",
    });
  });
});
