// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import type { Answer, RecordedCall } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { acceptanceFor } from "./continue-as.server.ts";
import { loadLogin, submitLogin } from "./login.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const csrf = "csrf-of-the-flow";
const challenge = "ch-1";
const identityId = "id-jane";
const authUrl = "http://localhost:4444/oauth2/auth?client_id=agency&response_type=code";

/** The refresh flow Kratos creates for a login challenge Hydra cannot skip, with a session. */
const refreshFlow = {
  ...(vendorJson("elements.login.refresh.password.initial.json") as object),
  id: "f-1",
  refresh: true,
  requested_aal: "aal1",
  oauth2_login_challenge: challenge,
  ui: {
    action: "http://localhost:3000/self-service/login?flow=f-1",
    method: "POST",
    messages: [],
    nodes: [
      {
        type: "input",
        group: "default",
        attributes: { node_type: "input", name: "csrf_token", type: "hidden", value: csrf },
        messages: [],
        meta: {},
      },
      {
        type: "input",
        group: "default",
        attributes: {
          node_type: "input",
          name: "identifier",
          type: "hidden",
          value: "jane@example.org",
        },
        messages: [],
        meta: {},
      },
    ],
  },
};

function activeSession(overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    id: "s-jane",
    active: true,
    authenticated_at: new Date(now - 60_000).toISOString(),
    issued_at: new Date(now - 60_000).toISOString(),
    expires_at: new Date(now + 3_600_000).toISOString(),
    authenticator_assurance_level: "aal1",
    authentication_methods: [{ method: "password" }, { method: "password" }],
    identity: { id: identityId, traits: { email: "jane@example.org" } },
    ...overrides,
  };
}

/** Hydra's OAuth2LoginRequest for the challenge: not skipped, nobody remembered. */
function loginRequest(query = "") {
  return {
    challenge,
    skip: false,
    subject: "",
    request_url: `${authUrl}${query}`,
    requested_scope: ["openid", "email"],
    requested_access_token_audience: [],
    oidc_context: {},
    client: { client_id: "agency", client_name: "Agency portal", redirect_uris: [] },
  };
}

const accepted = { status: 200, body: { redirect_to: `${authUrl}&login_verifier=v-1` } };

function routes(overrides: Record<string, Answer> = {}) {
  return {
    "GET /self-service/login/flows": { status: 200, body: refreshFlow },
    "GET /sessions/whoami": { status: 200, body: activeSession() },
    "GET /admin/oauth2/auth/requests/login": { status: 200, body: loginRequest() },
    "PUT /admin/oauth2/auth/requests/login/accept": accepted,
    ...overrides,
  };
}

function args(path: string, init?: RequestInit) {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, {
      ...init,
      headers: { cookie: "ory_kratos_session=jane; csrf=c", ...init?.headers },
    }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c" }),
    locale: "en" as const,
    url,
  };
}

const pagePath = `/en/login?flow=f-1&login_challenge=${challenge}`;

function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return submitLogin(
    args(pagePath, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "sec-fetch-site": "same-origin", ...headers },
    }),
  );
}

const acceptCalls = (calls: RecordedCall[]) => calls.filter((call) => call.method === "PUT");

describe("the login page for an OAuth2 login that meets the portal's session", () => {
  it("offers to continue as the session's account", async () => {
    const { calls } = stubIdentity(routes());

    const result = await loadLogin(args(pagePath));

    if (result instanceof Response) throw new Error("expected the page");
    expect(result.data.continueAs).toEqual({
      subject: identityId,
      account: "jane@example.org",
      csrfToken: csrf,
      challenge,
    });
    const read = calls.find((call) => call.url.pathname === "/admin/oauth2/auth/requests/login");
    expect(read?.url.searchParams.get("login_challenge")).toBe(challenge);
  });

  it.each([
    ["prompt=login", "&prompt=login"],
    ["an exceeded max_age", "&max_age=10"],
    ["a higher assurance level", "&acr_values=aal2"],
  ])("asks for the password after %s", async (_, query) => {
    stubIdentity(
      routes({
        "GET /admin/oauth2/auth/requests/login": { status: 200, body: loginRequest(query) },
      }),
    );

    const result = await loadLogin(args(pagePath));

    if (result instanceof Response) throw new Error("expected the page");
    expect(result.data.continueAs).toBeUndefined();
    expect(result.data.flow.refresh).toBe(true);
    expect(result.data.account).toBe("jane@example.org");
  });
});

describe("Continue", () => {
  it("accepts the login for the session's identity as Kratos would and goes on to Hydra", async () => {
    const { calls } = stubIdentity(routes());

    const response = await post({ csrf_token: csrf, continue_as: identityId });

    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${authUrl}&login_verifier=v-1`);
    const [accept] = acceptCalls(calls);
    expect(accept?.url.searchParams.get("login_challenge")).toBe(challenge);
    expect(accept?.body).toMatchObject({
      subject: identityId,
      identity_provider_session_id: "s-jane",
      remember: false,
      amr: ["password"],
      acr: "aal1",
    });
  });

  it("is refused for a session of another identity than the button named", async () => {
    const { calls } = stubIdentity(
      routes({
        "GET /sessions/whoami": {
          status: 200,
          body: activeSession({ identity: { id: "id-mallory", traits: {} } }),
        },
      }),
    );

    const response = await post({ csrf_token: csrf, continue_as: identityId });

    expect(response).toMatchObject({
      data: { continueAsRefusal: "login.continueAs.sessionChanged" },
      init: { status: 409 },
    });
    expect(acceptCalls(calls)).toEqual([]);
  });

  it("is refused once the session has ended", async () => {
    const { calls } = stubIdentity(
      routes({ "GET /sessions/whoami": { status: 401, body: { error: { code: 401 } } } }),
    );

    const response = await post({ csrf_token: csrf, continue_as: identityId });

    expect(response).toMatchObject({
      data: { continueAsRefusal: "login.continueAs.sessionEnded" },
      init: { status: 401 },
    });
    expect(acceptCalls(calls)).toEqual([]);
  });

  it("says the request is over when the login was handled already (410), never accepting", async () => {
    const { calls } = stubIdentity(
      routes({
        "GET /admin/oauth2/auth/requests/login": { status: 410, body: { redirect_to: authUrl } },
      }),
    );

    const response = await post({ csrf_token: csrf, continue_as: identityId });

    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.headers.get("location")).toBe("/en/error?oauth2=expired");
    expect(acceptCalls(calls)).toEqual([]);
  });

  it("asks for the password when the application wants a new sign-in by now", async () => {
    const { calls } = stubIdentity(
      routes({
        "GET /admin/oauth2/auth/requests/login": {
          status: 200,
          body: loginRequest("&prompt=login"),
        },
      }),
    );

    const response = await post({ csrf_token: csrf, continue_as: identityId });

    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.headers.get("location")).toBe(pagePath);
    expect(acceptCalls(calls)).toEqual([]);
  });

  it("is refused without the flow's CSRF token or from another site, before any session check", async () => {
    const { calls } = stubIdentity(routes());

    const forged = await post({ csrf_token: "guessed", continue_as: identityId });
    const missing = await post({ continue_as: identityId });
    const crossSite = await post(
      { csrf_token: csrf, continue_as: identityId },
      { "sec-fetch-site": "same-site" },
    );

    for (const response of [forged, missing, crossSite]) {
      expect(response).toMatchObject({ init: { status: 403 } });
    }
    expect(calls.filter((call) => call.url.pathname === "/sessions/whoami")).toEqual([]);
    expect(acceptCalls(calls)).toEqual([]);
  });

  it("is refused for a flow that carries no login challenge", async () => {
    const plain = { ...refreshFlow, oauth2_login_challenge: undefined };
    const { calls } = stubIdentity(
      routes({ "GET /self-service/login/flows": { status: 200, body: plain } }),
    );

    const response = await post({ csrf_token: csrf, continue_as: identityId });

    expect(response).toMatchObject({ init: { status: 403 } });
    expect(acceptCalls(calls)).toEqual([]);
  });
});

describe("the acceptance", () => {
  it("is not remembered: the OAuth2 service would date a later max_age or acr check from the click", () => {
    const acceptance = acceptanceFor(activeSession({ authenticator_assurance_level: "aal2" }));

    expect(acceptance.remember).toBe(false);
    expect(acceptance).not.toHaveProperty("remember_for");
    expect(acceptance).not.toHaveProperty("extend_session_lifespan");
    expect(acceptance.acr).toBe("aal2");
  });
});
