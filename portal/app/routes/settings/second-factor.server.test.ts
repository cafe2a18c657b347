// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { loadSettings, submitSettings } from "./settings.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const setupFlow = { ...(vendorJson("elements.settings.totp.setup.json") as object), id: "s1" };
const generated = {
  ...(vendorJson("elements.settings.lookup-secret.generated.json") as object),
  id: "s1",
};
const session = vendorJson("kratos.fixture.session.aal2-password-totp.json") as Record<
  string,
  unknown
>;
const otherSession = {
  ...session,
  id: "other-1",
  issued_at: "2026-05-04T17:30:00Z",
  devices: [
    {
      id: "d2",
      ip_address: "198.51.100.20",
      user_agent:
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    },
  ],
};
const csrf = "AAAAAAA/AAAAAA/2+AAAAAAAA==";

function args(path: string, init?: RequestInit, cookie = "ory_kratos_session=s; csrf=c") {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, { ...init, headers: { cookie } }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c-1" }),
    locale: "en" as const,
    url,
  };
}

function post(fields: Record<string, string>) {
  return args("/en/settings?flow=s1", { method: "POST", body: new URLSearchParams(fields) });
}

const saved = {
  status: 200,
  body: {
    ...(vendorJson("elements.settings.totp.linked.json") as object),
    id: "s1",
    continue_with: [
      {
        action: "redirect_browser_to",
        redirect_browser_to: "http://localhost:3000/settings?flow=s1",
      },
    ],
  },
};

describe("the settings loader's sessions and fingerprint", () => {
  it("reads this session and the others, and this browser's fingerprint cookie", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: setupFlow },
      "GET /sessions/whoami": { status: 200, body: session },
      "GET /sessions": { status: 200, body: [otherSession] },
    });

    const result = await loadSettings(
      args("/en/settings?flow=s1", undefined, "ory_kratos_session=s; x-session-entropy=fp-1"),
    );

    if (result instanceof Response) throw new Error("redirected");
    expect(result.data.fingerprint).toBe("fp-1");
    expect(result.data.sessions).toEqual({
      current: {
        id: "7458af86-c1d8-401c-978a-8da89133f98b",
        userAgent:
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.103 Safari/537.36",
        ipAddress: "54.155.246.232",
        signedInAt: "2013-10-07T08:23:19Z",
      },
      others: [
        {
          id: "other-1",
          userAgent: otherSession.devices[0]?.user_agent,
          ipAddress: "198.51.100.20",
          signedInAt: "2026-05-04T17:30:00Z",
        },
      ],
    });
    expect(calls.find((call) => call.url.pathname === "/sessions")?.headers.get("cookie")).toBe(
      "ory_kratos_session=s; x-session-entropy=fp-1",
    );
  });

  it("shows the page without the sessions when they cannot be read", async () => {
    stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: setupFlow },
      "GET /sessions/whoami": { status: 200, body: session },
      "GET /sessions": {
        status: 403,
        body: { error: { id: "session_aal2_required", code: 403 } },
      },
    });

    const result = await loadSettings(args("/en/settings?flow=s1"));

    if (result instanceof Response) throw new Error("redirected");
    expect(result.data.sessions).toBeUndefined();
    expect(result.data.fingerprint).toBeUndefined();
  });
});

describe("the settings action, second-factor cards", () => {
  it("links the authenticator app with its code and follows the answer back to the page", async () => {
    const { calls } = stubIdentity({ "POST /self-service/settings": saved });

    const response = await submitSettings(
      post({ csrf_token: csrf, totp_code: " 123456 ", method: "totp" }),
    );

    expect(calls[0]?.body).toEqual({ method: "totp", totp_code: "123456", csrf_token: csrf });
    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/settings?flow=s1",
    );
  });

  it("shows a wrong code on the card's field (400 with the flow)", async () => {
    const wrong = JSON.parse(JSON.stringify(setupFlow)) as {
      ui: { nodes: { attributes: { name?: string }; messages: unknown[] }[] };
    };
    const codeNode = wrong.ui.nodes.find((node) => node.attributes.name === "totp_code");
    codeNode?.messages.push({
      id: 4000008,
      type: "error",
      text: "The provided authentication code is invalid.",
    });
    stubIdentity({ "POST /self-service/settings": { status: 400, body: wrong } });

    const result = await submitSettings(post({ csrf_token: csrf, totp_code: "1", method: "totp" }));

    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.init?.status).toBe(400);
    expect(result.data.group).toBe("totp");
  });

  it.each([
    [{ totp_unlink: "true", confirm_action: "totp_unlink" }, "totp"],
    [{ lookup_secret_reveal: "true" }, "lookup_secret"],
    [{ lookup_secret_confirm: "true" }, "lookup_secret"],
    [{ lookup_secret_disable: "true", confirm_action: "lookup_secret_disable" }, "lookup_secret"],
    [{ code_mfa_enable: "jane@example.gov" }, "code"],
    [{ code_mfa_disable: "jane@example.gov", confirm_action: "code_mfa_disable" }, "code"],
    [{ totp_device_untrust: "device-1" }, "trusted-devices"],
  ])(
    "forwards the button %j as posted, without the confirmation, for the %s card",
    async (button, group) => {
      const posted = Object.entries(button).filter(([name]) => name !== "confirm_action");
      const invalid = { status: 400, body: setupFlow };
      const { calls } = stubIdentity({ "POST /self-service/settings": invalid });

      const result = await submitSettings(post({ csrf_token: csrf, ...button }));

      expect(calls[0]?.body).toEqual({ ...Object.fromEntries(posted), csrf_token: csrf });
      if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
      expect(result.data.group).toBe(group);
    },
  );

  it("shows new backup codes from the 200 answer to 'generate'", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/settings": { status: 200, body: generated },
    });

    const result = await submitSettings(
      post({
        csrf_token: csrf,
        lookup_secret_regenerate: "true",
        confirm_action: "lookup_secret_regenerate",
      }),
    );

    expect(calls[0]?.body).toEqual({ lookup_secret_regenerate: "true", csrf_token: csrf });
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.data.group).toBe("lookup_secret");
    expect(result.data.flow.ui.nodes.some((node) => node.attributes.node_type === "text")).toBe(
      true,
    );
  });

  it("follows 403 session_refresh_required to the refresh sign-in, with its notice", async () => {
    const redirect =
      "http://localhost:3000/api/kratos/self-service/login/browser?refresh=true&return_to=x";
    stubIdentity({
      "POST /self-service/settings": {
        status: 403,
        body: {
          error: { id: "session_refresh_required", code: 403 },
          redirect_browser_to: redirect,
        },
      },
    });

    const response = await submitSettings(
      post({
        csrf_token: csrf,
        lookup_secret_disable: "true",
        confirm_action: "lookup_secret_disable",
      }),
    );

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/login?refresh=true&return_to=x&notice=refresh",
    );
  });
});

describe("the settings action, sessions card", () => {
  const flowRead = { "GET /self-service/settings/flows": { status: 200, body: setupFlow } };

  it("signs out one other session after checking the form's token against the flow", async () => {
    const { calls } = stubIdentity({
      ...flowRead,
      "DELETE /sessions/other-1": { status: 204 },
    });

    const result = await submitSettings(
      post({ csrf_token: csrf, intent: "revoke-session", session_id: "other-1" }),
    );

    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([
      "GET /self-service/settings/flows",
      "DELETE /sessions/other-1",
    ]);
    if (result instanceof Response) throw new Error("redirected");
    expect(result.data).toEqual({ sessions: { kind: "revoked" } });
  });

  it("signs out everywhere else and reports how many", async () => {
    stubIdentity({ ...flowRead, "DELETE /sessions": { status: 200, body: { count: 3 } } });

    const result = await submitSettings(
      post({ csrf_token: csrf, intent: "revoke-other-sessions", confirm_action: "revoke_others" }),
    );

    if (result instanceof Response) throw new Error("redirected");
    expect(result.data).toEqual({ sessions: { kind: "revoked-others", count: 3 } });
  });

  it("refuses a form whose token is not the flow's, without signing anything out", async () => {
    const { calls } = stubIdentity(flowRead);

    const result = await submitSettings(
      post({
        csrf_token: "forged",
        intent: "revoke-other-sessions",
        confirm_action: "revoke_others",
      }),
    );

    expect(calls).toHaveLength(1);
    if (result instanceof Response) throw new Error("redirected");
    expect(result.init?.status).toBe(400);
    expect(result.data).toEqual({ sessions: { kind: "failed" } });
  });

  it("says so when the identity service refuses (the current session)", async () => {
    stubIdentity({
      ...flowRead,
      "DELETE /sessions/current": {
        status: 400,
        body: { error: { code: 400, reason: "cannot revoke current session" } },
      },
    });

    const result = await submitSettings(
      post({ csrf_token: csrf, intent: "revoke-session", session_id: "current" }),
    );

    if (result instanceof Response) throw new Error("redirected");
    expect(result.data).toEqual({ sessions: { kind: "failed" } });
  });

  it("sends a visitor whose session ended to sign in again", async () => {
    stubIdentity({
      "GET /self-service/settings/flows": { status: 401, body: { error: { code: 401 } } },
    });

    const response = await submitSettings(
      post({ csrf_token: csrf, intent: "revoke-other-sessions", confirm_action: "revoke_others" }),
    );

    expect(response instanceof Response && response.headers.get("location")).toBe(
      `/en/login?return_to=${encodeURIComponent("http://localhost:3000/en/settings")}`,
    );
  });
});
