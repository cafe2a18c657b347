import { describe, expect, it } from "vitest";
import { idTokenClaims } from "./id-token-claims.server.ts";

const identity = {
  traits: {
    email: "Jane@Example.gov",
    phone: "+15555550100",
    name: { first: "Jane", last: "Doe" },
  },
  verifiable_addresses: [
    { value: "jane@example.gov", verified: true, via: "email" },
    { value: "+15555550100", verified: false, via: "sms" },
  ],
};

describe("idTokenClaims", () => {
  it("gives only what the granted scopes allow", () => {
    expect(idTokenClaims(["openid"], identity)).toEqual({});
    expect(idTokenClaims(["openid", "email"], identity)).toEqual({
      email: "Jane@Example.gov",
      email_verified: true,
    });
  });

  it("words profile and phone claims from the traits", () => {
    expect(idTokenClaims(["profile", "phone"], identity)).toEqual({
      given_name: "Jane",
      family_name: "Doe",
      name: "Jane Doe",
      phone_number: "+15555550100",
      phone_number_verified: false,
    });
    expect(idTokenClaims(["profile"], { traits: { name: " Jane Doe " } })).toEqual({
      name: "Jane Doe",
    });
  });

  it("adds nothing for traits the identity does not have", () => {
    expect(idTokenClaims(["email", "profile", "phone"], { traits: null })).toEqual({});
  });
});
