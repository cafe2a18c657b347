// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { loadLogin, submitLogin } from "./login.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const flowJson = vendorJson("elements.login.1fa.password.initial.json");
const browserCookie = "csrf_token_abc=secret; lang=en";

function args(path: string, init?: RequestInit) {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, {
      ...init,
      headers: { cookie: browserCookie, "user-agent": "Test Browser/1.0", ...init?.headers },
    }),
    context: createLoadContext({
      nonce: "n",
      forwardedFor: "203.0.113.9",
      correlationId: "corr-1",
    }),
    locale: "en" as const,
    url,
  };
}

function postForm(path: string, fields: Record<string, string>) {
  return args(path, { method: "POST", body: new URLSearchParams(fields) });
}

/**
 * The login flow as Kratos returns it for /self-service/login/browser?login_challenge=…: the
 * challenge and the OAuth2 service's login request (Hydra's OAuth2LoginRequest) ride along, and
 * refresh is forced because the request cannot be skipped.
 */
const challengeFlow = {
  ...(flowJson as object),
  id: "f-oauth",
  refresh: true,
  oauth2_login_challenge: "ch-1",
  oauth2_login_request: {
    challenge: "ch-1",
    skip: false,
    subject: "",
    requested_scope: ["openid", "email"],
    requested_access_token_audience: [],
    request_url: "http://localhost:4444/oauth2/auth?client_id=agency&response_type=code",
    session_id: "ls-1",
    client: {
      client_id: "agency",
      client_name: "Agency portal",
      redirect_uris: ["https://agency.example.gov/callback"],
    },
    oidc_context: {},
  },
};

describe("the login loader for an OAuth2 login challenge", () => {
  function challengeArgs(path: string) {
    const allowOrigins = vi.fn();
    const base = args(path);
    return {
      ...base,
      context: createLoadContext({
        nonce: "n",
        forwardedFor: undefined,
        correlationId: "c",
        allowOrigins,
      }),
      allowOrigins,
    };
  }

  it("names the client, carries the challenge to registration and widens form-action", async () => {
    stubIdentity({
      "GET /self-service/login/flows": { status: 200, body: challengeFlow },
      "GET /sessions/whoami": { status: 401, body: { error: { id: "session_inactive" } } },
    });
    const loaderArgs = challengeArgs("/en/login?flow=f-oauth&login_challenge=ch-1");

    const result = await loadLogin(loaderArgs);

    if (result instanceof Response) throw new Error("expected the page");
    expect(result.data).toMatchObject({
      client: "Agency portal",
      registration: "?login_challenge=ch-1",
    });
    // No session to confirm: an ordinary sign-in, not "Confirm action".
    expect(result.data.flow.refresh).toBe(false);
    expect(loaderArgs.allowOrigins).toHaveBeenCalledWith("form-action", [
      "http://localhost:4444",
      "https://agency.example.gov",
    ]);
  });

  it("keeps a refresh flow when there is a session to confirm; falls back to the client id", async () => {
    const { oauth2_login_request: request } = challengeFlow;
    stubIdentity({
      "GET /self-service/login/flows": {
        status: 200,
        body: {
          ...challengeFlow,
          return_to: "http://localhost:4000/",
          oauth2_login_request: { ...request, client: { client_id: "agency" } },
        },
      },
      "GET /sessions/whoami": {
        status: 200,
        body: vendorJson("kratos.fixture.session.aal2-password-totp.json"),
      },
    });

    const result = await loadLogin(challengeArgs("/en/login?flow=f-oauth"));

    if (result instanceof Response) throw new Error("expected the page");
    expect(result.data.flow.refresh).toBe(true);
    expect(result.data.client).toBe("agency");
    expect(result.data.registration).toBe(
      "?return_to=http%3A%2F%2Flocalhost%3A4000%2F&login_challenge=ch-1",
    );
  });

  it("asks nothing more and widens nothing without a challenge", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/login/flows": { status: 200, body: flowJson },
    });
    const loaderArgs = challengeArgs("/en/login?flow=f1");
    const result = await loadLogin(loaderArgs);
    if (result instanceof Response) throw new Error("expected the page");
    expect(result.data).toMatchObject({ client: undefined, registration: "" });
    expect(calls).toHaveLength(1);
    expect(loaderArgs.allowOrigins).not.toHaveBeenCalled();
  });
});

describe("the login loader", () => {
  it("creates a browser flow with the page's parameters and redirects to it with its cookie", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/login/browser": {
        status: 200,
        body: { ...(flowJson as object), id: "new-flow" },
        setCookies: ["csrf_token_abc=fresh; Path=/; HttpOnly; SameSite=Lax"],
      },
    });

    const response = await loadLogin(
      args(
        "/en/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&refresh=true&aal=aal1&login_challenge=ch",
      ),
    );

    expect(response).toBeInstanceOf(Response);
    if (!(response instanceof Response)) return;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      "/en/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&refresh=true&aal=aal1&login_challenge=ch&flow=new-flow",
    );
    expect(response.headers.getSetCookie()).toEqual([
      "csrf_token_abc=fresh; Path=/; HttpOnly; SameSite=Lax",
    ]);
    const query = calls[0]?.url.searchParams;
    expect(query?.get("return_to")).toBe("http://localhost:4000/");
    expect(query?.get("refresh")).toBe("true");
    expect(query?.get("aal")).toBe("aal1");
    expect(query?.get("login_challenge")).toBe("ch");
  });

  it("fetches the flow as the browser: cookie, user agent, client address, correlation id, JSON", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/login/flows": { status: 200, body: flowJson },
    });

    const result = await loadLogin(args("/en/login?flow=f1"));

    expect(calls[0]?.url.searchParams.get("id")).toBe("f1");
    const headers = calls[0]?.headers;
    expect(headers?.get("cookie")).toBe(browserCookie);
    expect(headers?.get("user-agent")).toBe("Test Browser/1.0");
    expect(headers?.get("x-forwarded-for")).toBe("203.0.113.9");
    expect(headers?.get("x-correlation-id")).toBe("corr-1");
    expect(headers?.get("accept")).toBe("application/json");
    expect(result).not.toBeInstanceOf(Response);
    if (result instanceof Response) return;
    expect(result.data.flow.ui.nodes).toHaveLength(4);
    expect(result.data).toMatchObject({ invalid: false, confirmCreateAccount: false });
  });

  it("starts a new flow with a notice when the flow's CSRF check fails", async () => {
    stubIdentity({
      "GET /self-service/login/flows": {
        status: 403,
        body: { error: { id: "security_csrf_violation", code: 403 } },
      },
    });

    const response = await loadLogin(
      args("/en/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F"),
    );

    expect(response).toBeInstanceOf(Response);
    if (response instanceof Response) {
      expect(response.headers.get("location")).toBe(
        "/en/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&notice=csrf",
      );
    }
  });

  it("sends a signed-in visitor to the start page", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/login/browser": {
        status: 400,
        body: { error: { id: "session_already_available", code: 400 } },
      },
      "GET /sessions/whoami": { status: 200, body: { id: "s1", active: true } },
    });

    const response = await loadLogin(args("/en/login"));

    expect(response instanceof Response && response.headers.get("location")).toBe("/en");
    expect(calls[1]?.headers.get("cookie")).toBe(browserCookie);
  });
});

describe("the login action", () => {
  const fields = {
    csrf_token: "token",
    identifier: "  jane@example.gov ",
    password: "Correct-Horse-7",
    method: "password",
    remember_me: "true",
  };

  it("submits the password method as JSON, without the portal's own fields", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/login": {
        status: 200,
        body: {
          session: { id: "s1" },
          continue_with: [
            { action: "redirect_browser_to", redirect_browser_to: "http://localhost:4000/" },
          ],
        },
        setCookies: ["ory_kratos_session=s; Path=/; HttpOnly"],
      },
    });

    const response = await submitLogin(postForm("/en/login?flow=f1", fields));

    expect(calls[0]?.url.searchParams.get("flow")).toBe("f1");
    expect(calls[0]?.headers.get("content-type")).toBe("application/json");
    expect(calls[0]?.body).toEqual({
      method: "password",
      identifier: "jane@example.gov",
      password: "Correct-Horse-7",
      csrf_token: "token",
    });
    expect(response).toBeInstanceOf(Response);
    if (!(response instanceof Response)) return;
    expect(response.headers.get("location")).toBe("http://localhost:4000/");
    const [session, remembered] = response.headers.getSetCookie();
    expect(session).toBe("ory_kratos_session=s; Path=/; HttpOnly");
    // The portal's note of the account, for a second-factor screen (see below).
    expect(remembered).toMatch(/^portal_account=/);
  });

  it("returns the flow with its messages when the credentials are wrong (400)", async () => {
    stubIdentity({
      "POST /self-service/login": {
        status: 400,
        body: vendorJson("elements.login.1fa.password.wrong-credentials.json"),
      },
    });

    const result = await submitLogin(postForm("/en/login?flow=f1", fields));

    expect(result).not.toBeInstanceOf(Response);
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.init?.status).toBe(400);
    expect(result.data.flow.ui.messages?.[0]?.id).toBe(4000006);
  });

  it("falls back to the flow's return_to when success names no continuation", async () => {
    stubIdentity({
      "POST /self-service/login": { status: 200, body: { session: { id: "s1" } } },
      "GET /self-service/login/flows": {
        status: 200,
        body: { ...(flowJson as object), return_to: "http://localhost:4000/agency-selection" },
      },
    });

    const response = await submitLogin(postForm("/en/login?flow=f1", fields));

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "http://localhost:4000/agency-selection",
    );
  });

  it("treats a 401 as a failed sign-in on a fresh flow", async () => {
    stubIdentity({ "POST /self-service/login": { status: 401, body: { error: { code: 401 } } } });

    const response = await submitLogin(postForm("/en/login?flow=f1&refresh=true", fields));

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/login?invalid=true",
    );
  });

  it("treats a 401 on the second factor as an expired sign-in", async () => {
    stubIdentity({ "POST /self-service/login": { status: 401, body: { error: { code: 401 } } } });

    const response = await submitLogin(postForm("/en/login?flow=f1&aal=aal2", fields));

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/login?notice=expired",
    );
  });

  it("forwards a method it cannot show, and shows what the identity service answers", async () => {
    const refused = { status: 400, body: { ...(flowJson as object), id: "f1" } };
    const { calls } = stubIdentity({ "POST /self-service/login": refused });

    const result = await submitLogin(
      postForm("/en/login?flow=f1", { ...fields, method: "webauthn" }),
    );

    expect(calls[0]?.body).toEqual({
      method: "webauthn",
      identifier: "jane@example.gov",
      password: "Correct-Horse-7",
      csrf_token: "token",
    });
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.init?.status).toBe(400);
  });

  it("sends a sign-in that needs a verified address to its verification flow (403)", async () => {
    stubIdentity({
      "POST /self-service/login": {
        status: 403,
        body: {
          error: {
            id: "session_verified_address_required",
            code: 400,
            status: "Bad Request",
            reason: "Your account's email or phone address are not verified yet.",
            details: {
              continue_with: [
                {
                  action: "show_verification_ui",
                  flow: {
                    id: "v1",
                    verifiable_address: "jane@example.gov",
                    url: "http://localhost:3000/verification?flow=v1",
                  },
                },
              ],
            },
          },
        },
      },
    });

    const response = await submitLogin(postForm("/en/login?flow=f1", fields));

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/verification?flow=v1",
    );
  });

  it("sends a login flow that says the account is not verified (4000010) to /verification", async () => {
    const flow = vendorJson("elements.login.1fa.password.initial.json") as Record<string, unknown>;
    const ui = flow.ui as Record<string, unknown>;
    stubIdentity({
      "POST /self-service/login": {
        status: 400,
        body: {
          ...flow,
          ui: {
            ...ui,
            messages: [
              {
                id: 4000010,
                text: "Account not active yet. Did you forget to verify your email address?",
                type: "error",
              },
            ],
          },
        },
      },
    });

    const response = await submitLogin(
      postForm("/en/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F", fields),
    );

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F",
    );
  });
});

describe("the second-factor submissions", () => {
  const success = {
    status: 200,
    body: {
      session: { id: "s1", aal: "aal2" },
      continue_with: [
        { action: "redirect_browser_to", redirect_browser_to: "http://localhost:3000/" },
      ],
    },
    setCookies: [
      "ory_kratos_session=s2; Path=/; HttpOnly; SameSite=Lax",
      "ory_trusted_device=t1; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax",
    ],
  };
  const aal2 = "/en/login?flow=f2&aal=aal2";

  it("sends the authenticator code with trust_device and relays the trusted-device cookie", async () => {
    const { calls } = stubIdentity({ "POST /self-service/login": success });

    const response = await submitLogin(
      postForm(aal2, {
        csrf_token: "token",
        trust_device: "true",
        totp_code: " 123456 ",
        method: "totp",
      }),
    );

    expect(calls[0]?.body).toEqual({
      method: "totp",
      totp_code: "123456",
      csrf_token: "token",
      trust_device: "true",
    });
    expect(response instanceof Response && response.headers.get("location")).toBe("/");
    if (!(response instanceof Response)) return;
    expect(response.headers.getSetCookie()).toEqual(success.setCookies);
  });

  it("sends a backup code without trust_device when the box is not ticked", async () => {
    const { calls } = stubIdentity({ "POST /self-service/login": success });

    await submitLogin(
      postForm(aal2, { csrf_token: "token", lookup_secret: "ab12cd34", method: "lookup_secret" }),
    );

    expect(calls[0]?.body).toEqual({
      method: "lookup_secret",
      lookup_secret: "ab12cd34",
      csrf_token: "token",
    });
  });

  it("asks for a code to the chosen address and shows the code entry it answers (400)", async () => {
    const sent = vendorJson("elements.login.aal2.code.sent.json");
    const { calls } = stubIdentity({ "POST /self-service/login": { status: 400, body: sent } });

    const result = await submitLogin(
      postForm(aal2, { csrf_token: "token", address: "dev@ory.dev" }),
    );

    expect(calls[0]?.body).toEqual({ address: "dev@ory.dev", csrf_token: "token" });
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.init?.status).toBe(400);
    expect(result.data.flow.state).toBe("sent_email");
  });

  it("submits the code, or asks for another one without sending the code field", async () => {
    const { calls } = stubIdentity({ "POST /self-service/login": success });
    const sentForm = { csrf_token: "token", identifier: "dev@ory.dev", method: "code" };

    await submitLogin(postForm(aal2, { ...sentForm, code: " 424242 ", trust_device: "true" }));
    await submitLogin(postForm(aal2, { ...sentForm, code: "", resend: "code" }));

    expect(calls.map((call) => call.body)).toEqual([
      {
        method: "code",
        code: "424242",
        identifier: "dev@ory.dev",
        csrf_token: "token",
        trust_device: "true",
      },
      { method: "code", resend: "code", identifier: "dev@ory.dev", csrf_token: "token" },
    ]);
  });

  it("shows a wrong authenticator code (4000008) on the same flow", async () => {
    stubIdentity({
      "POST /self-service/login": {
        status: 400,
        body: vendorJson("elements.login.aal2.totp.invalid-code.json"),
      },
    });

    const result = await submitLogin(
      postForm(aal2, { csrf_token: "token", totp_code: "000000", method: "totp" }),
    );

    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.data.flow.ui.messages?.map((message) => message.id)).toEqual([4000008]);
  });
});

describe("the second-factor screen's account when the flow names nobody", () => {
  /** Kratos' aal2 flow for an authenticator app alone: no identifier node (kratos-behaviour). */
  const totpFlow = vendorJson("elements.login.aal2.totp.invalid-code.json") as { ui: object };
  const fields = {
    csrf_token: "token",
    identifier: "jane@example.gov",
    password: "Correct-Horse-7",
    method: "password",
  };

  /** The first factor through the portal: Kratos sets the half-finished session's cookie. */
  async function signInFirstFactor(): Promise<string[]> {
    stubIdentity({
      "POST /self-service/login": {
        status: 422,
        body: {
          error: { id: "browser_location_change_required", code: 422 },
          redirect_browser_to: "http://localhost:3000/en/login?flow=f2&aal=aal2",
        },
        setCookies: ["ory_kratos_session=aal1-session; Path=/; HttpOnly; SameSite=Lax"],
      },
    });
    const response = await submitLogin(postForm("/en/login?flow=f1", fields));
    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.headers.get("location")).toBe("/en/login?flow=f2&aal=aal2");
    return response.headers.getSetCookie();
  }

  /** The aal2 page as the browser then loads it, with the cookies it holds. */
  async function secondFactorPage(cookies: string, flow: object = totpFlow) {
    stubIdentity({ "GET /self-service/login/flows": { status: 200, body: flow } });
    const result = await loadLogin(
      args("/en/login?flow=f2&aal=aal2", { headers: { cookie: cookies } }),
    );
    if (result instanceof Response) throw new Error("expected the page");
    return result.data;
  }

  function pairOf(setCookie: string | undefined): string {
    return (setCookie ?? "").split(";")[0] ?? "";
  }

  it("names the account the first factor signed in, with that session's cookie", async () => {
    const [session, remembered] = await signInFirstFactor();

    const page = await secondFactorPage(`${pairOf(session)}; ${pairOf(remembered)}`);

    expect(page.account).toBe("jane@example.gov");
  });

  it("names nobody when the browser's session cookie is another one", async () => {
    const [, remembered] = await signInFirstFactor();

    const page = await secondFactorPage(`ory_kratos_session=other; ${pairOf(remembered)}`);

    expect(page.account).toBeUndefined();
  });

  it("names nobody on a plain sign-in, even with the note", async () => {
    const [session, remembered] = await signInFirstFactor();

    const page = await secondFactorPage(
      `${pairOf(session)}; ${pairOf(remembered)}`,
      flowJson as object,
    );

    expect(page.account).toBeUndefined();
  });

  it("takes no note from an identifier posted with a second factor (it names nobody there)", async () => {
    stubIdentity({
      "POST /self-service/login": {
        status: 422,
        body: {
          error: { id: "browser_location_change_required", code: 422 },
          redirect_browser_to: "http://localhost:4000/",
        },
        setCookies: ["ory_kratos_session=aal2-session; Path=/; HttpOnly; SameSite=Lax"],
      },
    });
    const response = await submitLogin(
      postForm("/en/login?flow=f2", {
        method: "totp",
        totp_code: "123456",
        identifier: "frank@example.gov",
        csrf_token: "token",
      }),
    );
    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.headers.getSetCookie().join("\n")).not.toContain("portal_account=");
  });

  it("prefers the flow's own identifier node", async () => {
    const [session, remembered] = await signInFirstFactor();
    const codeFlow = vendorJson("elements.login.aal2.code.sent.json") as { ui: object };

    const page = await secondFactorPage(`${pairOf(session)}; ${pairOf(remembered)}`, codeFlow);

    expect(page.account).toBe("dev@ory.dev");
  });
});
