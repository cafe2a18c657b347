// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import type { Locale } from "../../i18n/locales.ts";
import { loadRecovery, submitRecovery } from "./recovery.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const initial = vendorJson("elements.recovery.code.initial.json") as Record<string, unknown>;
const sent = vendorJson("elements.recovery.code.sent.json");
const wrongCode = vendorJson("elements.recovery.code.wrong-code.json");

function args(path: string, init?: RequestInit, locale: Locale = "en") {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, {
      ...init,
      headers: { cookie: "csrf_token_abc=secret", "accept-language": "en-US", ...init?.headers },
    }),
    context: createLoadContext({ nonce: "n", forwardedFor: "203.0.113.9", correlationId: "c-1" }),
    locale,
    url,
  };
}

function post(path: string, fields: Record<string, string>, locale: Locale = "en") {
  return args(path, { method: "POST", body: new URLSearchParams(fields) }, locale);
}

function locationOf(result: unknown): string | null {
  if (!(result instanceof Response)) throw new Error("expected a redirect");
  return result.headers.get("location");
}

describe("the recovery loader", () => {
  it("creates the flow in the page's language (Accept-Language) and opens it with its cookie", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/recovery/browser": {
        status: 200,
        body: { ...initial, id: "r1" },
        setCookies: ["csrf_token_abc=fresh; Path=/; HttpOnly"],
      },
    });

    const response = await loadRecovery(
      args("/es/recovery?return_to=http%3A%2F%2Flocalhost%3A4000%2F", undefined, "es"),
    );

    expect(locationOf(response)).toBe(
      "/es/recovery?return_to=http%3A%2F%2Flocalhost%3A4000%2F&flow=r1",
    );
    expect(response instanceof Response && response.headers.getSetCookie()).toEqual([
      "csrf_token_abc=fresh; Path=/; HttpOnly",
    ]);
    const call = calls[0];
    expect(call?.headers.get("accept-language")).toBe("es");
    expect(call?.headers.get("cookie")).toBe("csrf_token_abc=secret");
    expect(call?.headers.get("x-forwarded-for")).toBe("203.0.113.9");
    expect(call?.headers.get("x-correlation-id")).toBe("c-1");
    expect(call?.url.searchParams.get("return_to")).toBe("http://localhost:4000/");
  });

  it("sends a signed-in visitor to the start page", async () => {
    stubIdentity({
      "GET /self-service/recovery/browser": {
        status: 400,
        body: { error: { id: "session_already_available", code: 400 } },
      },
      "GET /sessions/whoami": { status: 200, body: { id: "s1", active: true } },
    });

    expect(locationOf(await loadRecovery(args("/en/recovery")))).toBe("/en");
  });

  it("shows a fetched flow", async () => {
    stubIdentity({ "GET /self-service/recovery/flows": { status: 200, body: sent } });

    const result = await loadRecovery(args("/en/recovery?flow=r1"));

    if (result instanceof Response) throw new Error("expected data");
    expect(result.data.flow.state).toBe("sent_email");
    expect(result.data.flow.ui.messages?.[0]?.id).toBe(1060003);
  });
});

describe("the recovery action", () => {
  it("asks for a code with the e-mail lowercased, in the page's language", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/recovery": { status: 200, body: sent },
    });

    const result = await submitRecovery(
      post(
        "/es/recovery?flow=r1",
        { csrf_token: "t", email: "  Jane@Example.GOV ", method: "code" },
        "es",
      ),
    );

    expect(calls[0]?.url.searchParams.get("flow")).toBe("r1");
    expect(calls[0]?.headers.get("accept-language")).toBe("es");
    expect(calls[0]?.body).toEqual({ method: "code", email: "jane@example.gov", csrf_token: "t" });
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.data.flow.state).toBe("sent_email");
  });

  it("refuses an invalid e-mail or an empty code without calling the identity service", async () => {
    const { calls } = stubIdentity({});

    const badEmail = await submitRecovery(
      post("/en/recovery?flow=r1", { csrf_token: "t", email: "jane@", method: "code" }),
    );
    const noCode = await submitRecovery(
      post("/en/recovery?flow=r1", { csrf_token: "t", code: " ", method: "code" }),
    );

    expect(calls).toHaveLength(0);
    if (badEmail instanceof Response || noCode instanceof Response) throw new Error("no data");
    expect(badEmail.init?.status).toBe(400);
    expect(badEmail.data).toMatchObject({
      fieldErrors: { email: [{ key: "kratos.4000001.email" }] },
      values: { email: "jane@" },
    });
    expect(noCode.data).toMatchObject({ fieldErrors: { code: [{ key: "kratos.4000002" }] } });
  });

  it("shows a wrong code (4060006) on the same flow", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/recovery": { status: 200, body: wrongCode },
    });

    const result = await submitRecovery(
      post("/en/recovery?flow=r1", { csrf_token: "t", code: "000000", method: "code" }),
    );

    expect(calls[0]?.body).toEqual({ method: "code", code: "000000", csrf_token: "t" });
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.data.flow.ui.messages?.map((message) => message.id)).toEqual([4060006]);
  });

  it("follows a 303 to the replacement flow, whose page shows its message", async () => {
    stubIdentity({
      "POST /self-service/recovery": ({ url }) => ({
        status: 303,
        location: `${url.origin}/self-service/recovery/flows?id=r2`,
        setCookies: ["csrf_token_abc=new; Path=/; HttpOnly"],
      }),
    });

    const response = await submitRecovery(
      post("/en/recovery?flow=r1&return_to=http%3A%2F%2Flocalhost%3A4000%2F", {
        csrf_token: "t",
        code: "123456",
        method: "code",
      }),
    );

    expect(locationOf(response)).toBe(
      "/en/recovery?return_to=http%3A%2F%2Flocalhost%3A4000%2F&flow=r2",
    );
    expect(response instanceof Response && response.headers.getSetCookie()).toEqual([
      "csrf_token_abc=new; Path=/; HttpOnly",
    ]);
  });

  it("goes on to our settings page with the new session's cookies after the right code", async () => {
    const cookies = [
      "csrf_token_abc=rotated; Path=/; HttpOnly; SameSite=Lax",
      "ory_kratos_session=ory_st_x; Path=/; HttpOnly; SameSite=Lax",
    ];
    stubIdentity({
      "POST /self-service/recovery": {
        status: 200,
        body: {
          ...initial,
          state: "passed_challenge",
          continue_with: [
            {
              action: "show_settings_ui",
              flow: { id: "s1", url: "http://localhost:3000/settings?flow=s1" },
            },
          ],
        },
        setCookies: cookies,
      },
    });

    const response = await submitRecovery(
      post("/es/recovery?flow=r1", { csrf_token: "t", code: "123456", method: "code" }, "es"),
    );

    expect(locationOf(response)).toBe("/es/settings?flow=s1");
    expect(response instanceof Response && response.headers.getSetCookie()).toEqual(cookies);
  });

  it("sends someone who is signed in meanwhile to the start page", async () => {
    stubIdentity({
      "POST /self-service/recovery": {
        status: 400,
        body: { error: { id: "session_already_available", code: 400 } },
      },
      "GET /sessions/whoami": { status: 200, body: { id: "s1", active: true } },
    });

    const response = await submitRecovery(
      post("/en/recovery?flow=r1", { csrf_token: "t", code: "123456", method: "code" }),
    );

    expect(locationOf(response)).toBe("/en");
  });
});
