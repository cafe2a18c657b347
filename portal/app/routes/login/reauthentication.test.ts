import { describe, expect, it } from "vitest";
import { reauthenticationReason } from "./reauthentication.ts";
import type { LoginRequestView, SessionView } from "./reauthentication.ts";

const now = new Date("2030-01-01T12:00:00Z");
const authUrl = "http://localhost:4444/oauth2/auth?client_id=agency&response_type=code";

function request(query = "", extra: Partial<LoginRequestView> = {}): LoginRequestView {
  return { skip: false, subject: "", request_url: `${authUrl}${query}`, ...extra };
}

const session: SessionView = {
  id: "s-1",
  active: true,
  // Signed in ten minutes ago, at the first level.
  authenticated_at: "2030-01-01T11:50:00Z",
  expires_at: "2030-01-02T11:50:00Z",
  authenticator_assurance_level: "aal1",
  identity: { id: "id-1" },
};

describe("whether a login request may be answered from the portal's session", () => {
  it("may, when the only reason Hydra did not skip is that no OAuth2 login is remembered", () => {
    expect(reauthenticationReason(request(), session, now)).toBeUndefined();
    expect(reauthenticationReason(request("&prompt=consent"), session, now)).toBeUndefined();
    // select_account is what "Continue as / Use another account" is.
    expect(reauthenticationReason(request("&prompt=select_account"), session, now)).toBeUndefined();
  });

  it("may not with prompt=login, alone or among other prompts", () => {
    expect(reauthenticationReason(request("&prompt=login"), session, now)).toBe("prompt-login");
    expect(reauthenticationReason(request("&prompt=consent%20login"), session, now)).toBe(
      "prompt-login",
    );
  });

  it("may not when the authentication is older than max_age, or max_age is 0 or unreadable", () => {
    expect(reauthenticationReason(request("&max_age=3600"), session, now)).toBeUndefined();
    expect(reauthenticationReason(request("&max_age=300"), session, now)).toBe("max-age");
    expect(reauthenticationReason(request("&max_age=0"), session, now)).toBe("max-age");
    expect(reauthenticationReason(request("&max_age=soon"), session, now)).toBe("max-age");
    const unknownAge = { ...session, authenticated_at: undefined };
    expect(reauthenticationReason(request("&max_age=3600"), unknownAge, now)).toBe("max-age");
  });

  it("may not when every requested assurance level is above the session's", () => {
    const aal2 = request("", { oidc_context: { acr_values: ["aal2"] } });
    expect(reauthenticationReason(aal2, session, now)).toBe("acr");
    expect(reauthenticationReason(request("&acr_values=aal2"), session, now)).toBe("acr");
    expect(
      reauthenticationReason(aal2, { ...session, authenticator_assurance_level: "aal2" }, now),
    ).toBeUndefined();
    // A level the session meets among the acceptable ones, or values of another kind: fine.
    expect(
      reauthenticationReason(request("&acr_values=aal2%20aal1"), session, now),
    ).toBeUndefined();
    expect(
      reauthenticationReason(
        request("", { oidc_context: { acr_values: ["urn:x"] } }),
        session,
        now,
      ),
    ).toBeUndefined();
  });

  it("may not for another person: a remembered subject or an id_token_hint of someone else", () => {
    expect(reauthenticationReason(request("", { subject: "id-2" }), session, now)).toBe(
      "other-subject",
    );
    expect(reauthenticationReason(request("", { subject: "id-1" }), session, now)).toBeUndefined();
    const hinted = request("", { oidc_context: { id_token_hint_claims: { sub: "id-2" } } });
    expect(reauthenticationReason(hinted, session, now)).toBe("other-subject");
  });

  it("may not with an inactive or expired session, or a request it cannot read", () => {
    expect(reauthenticationReason(request(), { ...session, active: false }, now)).toBe(
      "session-inactive",
    );
    expect(
      reauthenticationReason(request(), { ...session, expires_at: "2030-01-01T11:59:59Z" }, now),
    ).toBe("session-inactive");
    expect(reauthenticationReason(request(), { id: "s-1" }, now)).toBe("session-inactive");
    expect(reauthenticationReason({ request_url: "not a url" }, session, now)).toBe(
      "unreadable-request",
    );
  });
});
