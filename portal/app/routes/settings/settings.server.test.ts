// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { isFlowShape } from "../../flows/identity-outcome.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { loadSettings, submitSettings, withRecoveryMinutes } from "./settings.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const changed = vendorJson("elements.settings.password.changed.json") as Record<string, unknown>;
const withIdentity = vendorJson("kratos.fixture.settings-flow.with-identity.json") as Record<
  string,
  unknown
>;
/** A settings flow as fetched: the nodes of one fixture, the identity of another. */
const flow = { ...changed, state: "show_form", identity: withIdentity.identity };

function args(path: string, init?: RequestInit) {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, { ...init, headers: { cookie: "ory_kratos_session=s; csrf=c" } }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c-1" }),
    locale: "en" as const,
    url,
  };
}

function post(path: string, fields: Record<string, string>) {
  return args(path, { method: "POST", body: new URLSearchParams(fields) });
}

function locationOf(result: unknown): string | null {
  if (!(result instanceof Response)) throw new Error("expected a redirect");
  return result.headers.get("location");
}

const strong = "Brand-New-Secret-42";
const session = vendorJson("kratos.fixture.session.aal2-password-totp.json");

describe("the settings loader", () => {
  it("sends a visitor without a session to sign in (refresh=true), coming back here afterwards", async () => {
    stubIdentity({
      "GET /self-service/settings/browser": {
        status: 401,
        body: { error: { id: "session_inactive", code: 401 } },
      },
    });

    const response = await loadSettings(
      args("/en/settings?return_to=http%3A%2F%2Flocalhost%3A4000%2F"),
    );

    const back = "http://localhost:3000/en/settings?return_to=http%3A%2F%2Flocalhost%3A4000%2F";
    expect(locationOf(response)).toBe(
      `/en/login?refresh=true&return_to=${encodeURIComponent(back)}`,
    );
  });

  it("also on an existing flow (401 without an error id)", async () => {
    stubIdentity({
      "GET /self-service/settings/flows": { status: 401, body: { error: { code: 401 } } },
    });

    expect(locationOf(await loadSettings(args("/en/settings?flow=s1")))).toBe(
      `/en/login?return_to=${encodeURIComponent("http://localhost:3000/en/settings")}`,
    );
  });

  it("follows 403 session_aal2_required to our second-factor login", async () => {
    const returnTo = "http://localhost:3000/api/kratos/self-service/settings/browser";
    stubIdentity({
      "GET /self-service/settings/browser": {
        status: 403,
        body: {
          error: { id: "session_aal2_required", code: 403 },
          redirect_browser_to: `http://localhost:3000/api/kratos/self-service/login/browser?aal=aal2&return_to=${encodeURIComponent(returnTo)}`,
        },
      },
    });

    expect(locationOf(await loadSettings(args("/en/settings")))).toBe(
      `/en/login?aal=aal2&return_to=${encodeURIComponent(returnTo)}`,
    );
  });

  it("creates a flow and opens it", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/settings/browser": { status: 200, body: { ...flow, id: "s1" } },
    });

    expect(locationOf(await loadSettings(args("/en/settings")))).toBe("/en/settings?flow=s1");
    expect(calls[0]?.headers.get("accept-language")).toBe("en");
  });

  it("shows a saved flow read back with its continue_with, instead of following it again", async () => {
    stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: { ...changed, id: "s1" } },
      "GET /sessions/whoami": { status: 200, body: session },
      "GET /sessions": { status: 200, body: [] },
    });

    const result = await loadSettings(args("/en/settings?flow=s1"));

    if (result instanceof Response)
      throw new Error(`redirected to ${result.headers.get("location")}`);
    expect(result.data.flow.state).toBe("success");
    expect(result.data.flow.ui.messages?.map((message) => message.id)).toEqual([1050001]);
  });

  it("describes the devices of the sessions it lists, so the browser needs no user-agent parser", async () => {
    const windows =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    const other = { id: "other", devices: [{ user_agent: windows, ip_address: "192.0.2.1" }] };
    stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: { ...flow, id: "s1" } },
      "GET /sessions/whoami": { status: 200, body: session },
      "GET /sessions": { status: 200, body: [other] },
    });

    const result = await loadSettings(args("/en/settings?flow=s1"));

    if (result instanceof Response)
      throw new Error(`redirected to ${result.headers.get("location")}`);
    expect(result.data.sessions?.others[0]?.userAgent).toBe(windows);
    expect(result.data.devices[windows]).toEqual({
      kind: "desktop",
      browser: "Chrome 126.0.0.0",
      os: "Windows 10",
    });
  });

  it("opens the replacement of an expired flow (410 use_flow_id), saying it expired", async () => {
    stubIdentity({
      "GET /self-service/settings/flows": {
        status: 410,
        body: { error: { id: "self_service_flow_expired", code: 410 }, use_flow_id: "s2" },
      },
    });

    expect(locationOf(await loadSettings(args("/en/settings?flow=s1")))).toBe(
      "/en/settings?flow=s2&notice=expired",
    );
  });
});

describe("the settings action, password card", () => {
  it("refuses a weak or unconfirmed password without calling the identity service", async () => {
    const { calls } = stubIdentity({});

    const result = await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password: "short",
        confirm_password: "other",
      }),
    );

    expect(calls).toHaveLength(0);
    if (result instanceof Response) throw new Error("expected data");
    expect(result.data).toMatchObject({
      group: "password",
      fieldErrors: {
        password: [{ id: 203 }],
        confirm_password: [{ key: "validation.passwordsMustMatch" }],
      },
    });
  });

  it("refuses a long password without the spec §5 character kinds (203), even confirmed", async () => {
    const { calls } = stubIdentity({});
    const password = "correcthorsebatterystaple";

    const result = await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password,
        confirm_password: password,
      }),
    );

    expect(calls).toHaveLength(0);
    if (result instanceof Response) throw new Error("expected data");
    expect(result.init?.status).toBe(400);
    expect(result.data).toEqual({
      group: "password",
      fieldErrors: { password: [{ id: 203, key: "validation.passwordStrength", type: "error" }] },
      values: {},
    });
  });

  it("sends the new password without the confirmation, then shows the saved flow", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/settings": {
        status: 200,
        body: {
          ...changed,
          id: "s1",
          continue_with: [
            {
              action: "redirect_browser_to",
              redirect_browser_to: "http://localhost:3000/settings?flow=s1",
            },
          ],
        },
        setCookies: ["ory_kratos_session=renewed; Path=/; HttpOnly"],
      },
    });

    const response = await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password: strong,
        confirm_password: strong,
      }),
    );

    expect(calls[0]?.body).toEqual({ method: "password", password: strong, csrf_token: "t" });
    expect(locationOf(response)).toBe("/en/settings?flow=s1");
    expect(response instanceof Response && response.headers.getSetCookie()).toEqual([
      "ory_kratos_session=renewed; Path=/; HttpOnly",
    ]);
  });

  it("asks for a fresh sign-in through our login page, with a notice, when the session is too old", async () => {
    const back = "http://localhost:3000/api/kratos/self-service/settings?flow=s1";
    stubIdentity({
      "POST /self-service/settings": {
        status: 403,
        body: {
          error: { id: "session_refresh_required", code: 403 },
          redirect_browser_to: `http://localhost:3000/api/kratos/self-service/login/browser?refresh=true&return_to=${encodeURIComponent(back)}`,
        },
      },
    });

    const response = await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password: strong,
        confirm_password: strong,
      }),
    );

    expect(locationOf(response)).toBe(
      `/en/login?refresh=true&return_to=${encodeURIComponent(back)}&notice=refresh`,
    );
  });

  it("shows the server's own password messages on the flow (400)", async () => {
    const rejected: unknown = structuredClone(flow);
    if (!isFlowShape(rejected)) throw new Error("not a flow");
    const password = rejected.ui.nodes.find(
      (node) => isRecord(node) && isRecord(node.attributes) && node.attributes.name === "password",
    );
    if (!isRecord(password)) throw new Error("no password node");
    password.messages = [
      {
        id: 4000034,
        text: "The password has been found in data breaches and must no longer be used.",
        type: "error",
        context: { breaches: 1 },
      },
    ];
    stubIdentity({ "POST /self-service/settings": { status: 400, body: rejected } });

    const result = await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password: strong,
        confirm_password: strong,
      }),
    );

    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.init?.status).toBe(400);
    expect(result.data.group).toBe("password");
    const field = result.data.flow.ui.nodes.find(
      (node) => node.attributes.node_type === "input" && node.attributes.name === "password",
    );
    expect(field?.messages.map((message) => message.id)).toEqual([4000034]);
  });

  it("turns a 400 that carries error code 500 into 'something went wrong'", async () => {
    stubIdentity({
      "POST /self-service/settings": {
        status: 400,
        body: { error: { code: 500, status: "Internal Server Error", message: "boom" } },
      },
    });

    const result = await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password: strong,
        confirm_password: strong,
      }),
    );

    if (result instanceof Response) throw new Error("expected data");
    expect(result.data).toEqual({ notice: "notice.somethingWentWrong" });
  });
});

describe("the settings action, profile card", () => {
  it("sends the stored e-mail whatever was posted, and the phone number as E.164", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: flow },
      "POST /self-service/settings": { status: 200, body: changed },
    });

    await submitSettings(
      post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "profile",
        "traits.email": "attacker@example.org",
        "traits.phone": "(202) 555-0123",
      }),
    );

    const update = calls.find((call) => call.method === "POST");
    expect(update?.body).toEqual({
      method: "profile",
      traits: { email: "foobar@ory.sh", phone: "+12025550123" },
      csrf_token: "t",
    });
  });

  it("removes a cleared phone number instead of sending it empty", async () => {
    const withPhone = {
      ...flow,
      identity: {
        ...(withIdentity.identity as object),
        traits: { email: "foobar@ory.sh", phone: "+12025550123" },
      },
    };
    const { calls } = stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: withPhone },
      "POST /self-service/settings": { status: 200, body: changed },
    });

    await submitSettings(
      post("/en/settings?flow=s1", { csrf_token: "t", method: "profile", "traits.phone": "" }),
    );

    const update = calls.find((call) => call.method === "POST");
    expect(update?.body).toMatchObject({ traits: { email: "foobar@ory.sh" } });
    expect(update?.body).not.toHaveProperty("traits.phone");
  });

  it("refuses a phone number that is not one", async () => {
    const { calls } = stubIdentity({});

    const result = await submitSettings(
      post("/en/settings?flow=s1", { csrf_token: "t", method: "profile", "traits.phone": "12" }),
    );

    expect(calls).toHaveLength(0);
    if (result instanceof Response) throw new Error("expected data");
    expect(result.data).toMatchObject({
      group: "profile",
      fieldErrors: { "traits.phone": [{ key: "kratos.4000001.phone" }] },
      values: { "traits.phone": "12" },
    });
  });
});

describe("withRecoveryMinutes", () => {
  it("works out the minutes 1060001 speaks of from its expiry time", () => {
    const recovered = {
      id: "s1",
      ui: {
        nodes: [],
        messages: [
          {
            id: 1060001,
            type: "success",
            text: "…",
            context: { privileged_session_expires_at: "2026-01-01T01:00:00.000Z" },
          },
        ],
      },
    };
    if (!isFlowShape(recovered)) throw new Error("not a flow");

    const result = withRecoveryMinutes(recovered, new Date("2026-01-01T00:15:20.000Z"));

    expect(result.ui.messages).toEqual([
      expect.objectContaining({
        context: {
          privileged_session_expires_at: "2026-01-01T01:00:00.000Z",
          minutes_until_privileged_session_expires_at: 45,
        },
      }),
    ]);
  });
});
