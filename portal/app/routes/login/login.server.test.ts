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
    stubIdentity({
      "GET /self-service/login/browser": {
        status: 400,
        body: { error: { id: "session_already_available", code: 400 } },
      },
    });

    const response = await loadLogin(args("/en/login"));

    expect(response instanceof Response && response.headers.get("location")).toBe("/en");
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
    expect(response.headers.getSetCookie()).toEqual(["ory_kratos_session=s; Path=/; HttpOnly"]);
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

    const response = await submitLogin(postForm("/en/login?flow=f1&aal=aal2", fields));

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/login?invalid=true",
    );
  });

  it("refuses a method it cannot submit without calling the identity service", async () => {
    const { calls } = stubIdentity({});

    const result = await submitLogin(
      postForm("/en/login?flow=f1", { ...fields, method: "webauthn" }),
    );

    expect(calls).toHaveLength(0);
    expect(result).not.toBeInstanceOf(Response);
    if (!(result instanceof Response))
      expect(result.data).toEqual({ notice: "notice.somethingWentWrong" });
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
