// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import type { RecordedCall } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { loadConsent, submitConsent } from "./consent.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Kratos' session fixture: the identity whose consent is asked (subject below). */
const session = vendorJson("kratos.fixture.session.aal2-password-totp.json") as {
  identity: { id: string };
};
const subject = session.identity.id;

/** GET /admin/oauth2/auth/requests/consent as Hydra answers it (oAuth2ConsentRequest). */
function consentRequest(overrides: Record<string, unknown> = {}) {
  return {
    challenge: "consent-ch",
    consent_request_id: "cr-1",
    skip: false,
    subject,
    requested_scope: ["openid", "email", "offline_access", "calendar.read"],
    requested_access_token_audience: ["https://api.example.gov"],
    request_url: "http://localhost:4444/oauth2/auth?client_id=agency&response_type=code",
    login_challenge: "login-ch",
    login_session_id: "ls-1",
    acr: "0",
    amr: ["pwd"],
    client: {
      client_id: "agency",
      client_name: "Agency portal",
      redirect_uris: ["https://agency.example.gov/callback"],
      logo_uri: "https://cdn.example.gov/logo.svg",
      policy_uri: "https://agency.example.gov/privacy",
      tos_uri: "javascript:alert(1)",
      skip_consent: false,
    },
    oidc_context: {},
    ...overrides,
  };
}

const redirectTo = "http://localhost:4444/oauth2/auth?client_id=agency&consent_verifier=v1";

function args(path: string, init?: RequestInit) {
  const url = new URL(path, "http://localhost:3000");
  const allowOrigins = vi.fn();
  return {
    request: new Request(url, { ...init, headers: { cookie: "ory_kratos_session=s" } }),
    context: createLoadContext({
      nonce: "n",
      forwardedFor: undefined,
      correlationId: "corr-1",
      allowOrigins,
    }),
    locale: "en" as const,
    url,
    allowOrigins,
  };
}

function post(path: string, fields: Record<string, string>) {
  return args(path, { method: "POST", body: new URLSearchParams(fields) });
}

const accepted = (call: RecordedCall) => {
  expect(call.url.searchParams.get("consent_challenge")).toBe("consent-ch");
  return { status: 200, body: { redirect_to: redirectTo } };
};

function location(result: unknown) {
  expect(result).toBeInstanceOf(Response);
  return result instanceof Response ? [result.status, result.headers.get("location")] : [];
}

describe("the consent loader", () => {
  it("shows the client and the requested scopes, and widens CSP to the client", async () => {
    const { calls } = stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": { status: 200, body: consentRequest() },
    });
    const loaderArgs = args("/en/consent?consent_challenge=consent-ch");

    const view = await loadConsent(loaderArgs);

    expect(view).toEqual({
      challenge: "consent-ch",
      client: {
        name: "Agency portal",
        logo: "https://cdn.example.gov/logo.svg",
        policy: "https://agency.example.gov/privacy",
        tos: undefined,
      },
      scopes: ["openid", "email", "offline_access", "calendar.read"],
    });
    expect(calls[0]?.url.origin).toBe("http://127.0.0.1:4445");
    expect(calls[0]?.headers.get("cookie")).toBeNull();
    expect(loaderArgs.allowOrigins).toHaveBeenCalledWith("form-action", [
      "http://localhost:4444",
      "https://agency.example.gov",
    ]);
    expect(loaderArgs.allowOrigins).toHaveBeenCalledWith("img-src", ["https://cdn.example.gov"]);
  });

  it("falls back to the client id when the client has no name", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": {
        status: 200,
        body: consentRequest({ client: { client_id: "agency", redirect_uris: [] } }),
      },
    });
    await expect(
      loadConsent(args("/en/consent?consent_challenge=consent-ch")),
    ).resolves.toMatchObject({ client: { name: "agency" } });
  });

  it.each([
    ["a remembered consent (skip)", { skip: true }, true],
    [
      "a first-party client (skip_consent)",
      { client: { ...consentRequest().client, skip_consent: true } },
      false,
    ],
  ])(
    "accepts %s at once with every requested scope and the identity's claims",
    async (_, overrides, remember) => {
      const { calls } = stubIdentity({
        "GET /admin/oauth2/auth/requests/consent": {
          status: 200,
          body: consentRequest({ requested_scope: ["openid", "email", "profile"], ...overrides }),
        },
        "GET /sessions/whoami": { status: 200, body: session },
        "PUT /admin/oauth2/auth/requests/consent/accept": accepted,
      });

      const result = await loadConsent(args("/en/consent?consent_challenge=consent-ch"));

      expect(location(result)).toEqual([303, redirectTo]);
      expect(
        calls.find((call) => call.url.pathname === "/sessions/whoami")?.headers.get("cookie"),
      ).toBe("ory_kratos_session=s");
      expect(calls.at(-1)?.body).toEqual({
        grant_scope: ["openid", "email", "profile"],
        grant_access_token_audience: ["https://api.example.gov"],
        remember,
        remember_for: 0,
        session: { id_token: { email: "bazbar@ory.sh", email_verified: false } },
      });
    },
  );

  it("refuses to accept for another person than the one signed in", async () => {
    const { calls } = stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": {
        status: 200,
        body: consentRequest({ skip: true, subject: "someone-else" }),
      },
      "GET /sessions/whoami": { status: 200, body: session },
    });

    const result = await loadConsent(args("/en/consent?consent_challenge=consent-ch"));

    expect(location(result)).toEqual([302, "/en/error?oauth2=sessionMismatch"]);
    expect(calls.map((call) => call.method)).toEqual(["GET", "GET"]);
  });

  it("needs the challenge", async () => {
    stubIdentity({});
    expect(location(await loadConsent(args("/en/consent")))).toEqual([
      302,
      "/en/error?oauth2=expired",
    ]);
  });

  it("follows redirect_to of a used challenge (410)", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": {
        status: 410,
        body: { redirect_to: "http://localhost:4444/oauth2/auth?client_id=agency" },
      },
    });
    expect(location(await loadConsent(args("/en/consent?consent_challenge=used")))).toEqual([
      303,
      "http://localhost:4444/oauth2/auth?client_id=agency",
    ]);
  });

  it.each([
    [404, "expired"],
    [401, "expired"],
    [500, "unavailable"],
  ])("sends a %i answer to the error page (%s)", async (status, problem) => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": {
        status,
        body: { error: "not_found", error_description: "Unable to locate the resource" },
      },
    });
    expect(location(await loadConsent(args("/en/consent?consent_challenge=x")))).toEqual([
      302,
      `/en/error?oauth2=${problem}`,
    ]);
  });

  it("says the service is unavailable when it cannot be reached", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("fetch failed"))),
    );
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(location(await loadConsent(args("/en/consent?consent_challenge=x")))).toEqual([
      302,
      "/en/error?oauth2=unavailable",
    ]);
  });
});

describe("the consent action", () => {
  it("Allow accepts the requested scopes from the service's record, remembered when ticked", async () => {
    const { calls } = stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": { status: 200, body: consentRequest() },
      "GET /sessions/whoami": { status: 200, body: session },
      "PUT /admin/oauth2/auth/requests/consent/accept": accepted,
    });

    const result = await submitConsent(
      post("/en/consent?consent_challenge=consent-ch", {
        consent_challenge: "consent-ch",
        remember: "true",
        decision: "allow",
        grant_scope: "admin",
      }),
    );

    expect(location(result)).toEqual([303, redirectTo]);
    expect(calls.at(-1)?.body).toEqual({
      grant_scope: ["openid", "email", "offline_access", "calendar.read"],
      grant_access_token_audience: ["https://api.example.gov"],
      remember: true,
      remember_for: 0,
      session: { id_token: { email: "bazbar@ory.sh", email_verified: false } },
    });
  });

  it("Deny rejects with access_denied and follows redirect_to", async () => {
    const { calls } = stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": { status: 200, body: consentRequest() },
      "PUT /admin/oauth2/auth/requests/consent/reject": {
        status: 200,
        body: { redirect_to: redirectTo },
      },
    });

    const result = await submitConsent(
      post("/en/consent?consent_challenge=consent-ch", { decision: "deny" }),
    );

    expect(location(result)).toEqual([303, redirectTo]);
    expect(calls.at(-1)?.body).toMatchObject({ error: "access_denied", status_code: 403 });
  });

  it("follows redirect_to when the challenge was used meanwhile (410)", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": { status: 200, body: consentRequest() },
      "GET /sessions/whoami": { status: 200, body: session },
      "PUT /admin/oauth2/auth/requests/consent/accept": {
        status: 410,
        body: { redirect_to: "http://localhost:4444/oauth2/auth?client_id=agency" },
      },
    });

    const result = await submitConsent(
      post("/en/consent?consent_challenge=consent-ch", { decision: "allow" }),
    );

    expect(location(result)).toEqual([303, "http://localhost:4444/oauth2/auth?client_id=agency"]);
  });

  it("reads the challenge from the form when the URL lacks it", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/consent": { status: 404, body: { error: "not_found" } },
    });
    const result = await submitConsent(post("/en/consent", { consent_challenge: "gone" }));
    expect(location(result)).toEqual([302, "/en/error?oauth2=expired"]);
  });
});
