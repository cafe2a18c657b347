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

  it("spells yes/no fields as the identity service reads them, so the portal reads them the same", () => {
    expect(
      forwardedForm(
        form({ totp_unlink: "T", lookup_secret_disable: "1", trust_device: "FALSE", x: "1" }),
        [],
      ),
    ).toEqual({
      totp_unlink: "true",
      lookup_secret_disable: "true",
      trust_device: "false",
      x: "1",
    });
    // A value the identity service refuses goes on as posted, for it to refuse.
    expect(forwardedForm(form({ lookup_secret_regenerate: "yes" }), [])).toEqual({
      lookup_secret_regenerate: "yes",
    });
  });

  it("drops a field name nested deeper than a form needs, quickly and without a stack overflow", () => {
    const deep = Array.from({ length: 30_000 }, () => "a").join(".");
    const started = performance.now();
    expect(forwardedForm(form({ [deep]: "1", "traits.name.first": "Jane" }), [])).toEqual({
      traits: { name: { first: "Jane" } },
    });
    expect(performance.now() - started, "milliseconds").toBeLessThan(1000);
    const eight = Array.from({ length: 8 }, (_, index) => `k${index}`).join(".");
    expect(JSON.stringify(forwardedForm(form({ [eight]: "v" }), []))).toBe(
      '{"k0":{"k1":{"k2":{"k3":{"k4":{"k5":{"k6":{"k7":"v"}}}}}}}}',
    );
  });
});
