// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import type { Locale } from "../../i18n/locales.ts";
import { loadVerification, submitVerification } from "./verification.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const initial = vendorJson("elements.verification.code.initial.json") as Record<string, unknown>;
const sent = vendorJson("elements.verification.code.sent.json");
const wrongCode = vendorJson("elements.verification.code.wrong-code.json");

/** The identity service's answer to the right code (see its README), on the portal's origin. */
function passed(href: string) {
  return {
    ...initial,
    state: "passed_challenge",
    ui: {
      action: href,
      method: "GET",
      nodes: [
        {
          type: "a",
          group: "code",
          attributes: {
            id: "continue",
            href,
            title: { id: 1070009, text: "Continue", type: "info" },
            node_type: "a",
          },
          messages: [],
          meta: { label: { id: 1070009, text: "Continue", type: "info" } },
        },
      ],
      messages: [
        { id: 1080002, text: "You successfully verified your email address.", type: "success" },
      ],
    },
  };
}

function args(path: string, init?: RequestInit, locale: Locale = "en") {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, { ...init, headers: { cookie: "csrf_token_abc=secret" } }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c-1" }),
    locale,
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

const whoamiSignedOut = { status: 401, body: { error: { id: "session_inactive", code: 401 } } };

describe("the verification loader", () => {
  it("creates a flow in the page's language and keeps return_to and the channel", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/verification/browser": { status: 200, body: { ...initial, id: "v1" } },
    });

    const response = await loadVerification(
      args(
        "/es/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F&channel=sms",
        undefined,
        "es",
      ),
    );

    expect(locationOf(response)).toBe(
      "/es/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F&channel=sms&flow=v1",
    );
    expect(calls[0]?.headers.get("accept-language")).toBe("es");
  });

  it("goes to the start page when no flow can be created (400)", async () => {
    stubIdentity({
      "GET /self-service/verification/browser": { status: 400, body: { error: { code: 400 } } },
    });

    expect(locationOf(await loadVerification(args("/en/verification")))).toBe("/en");
  });

  it("lists a signed-in person's addresses from their session", async () => {
    stubIdentity({
      "GET /self-service/verification/flows": { status: 200, body: sent },
      "GET /sessions/whoami": {
        status: 200,
        body: {
          id: "s1",
          identity: {
            id: "i1",
            schema_id: "default",
            schema_url: "",
            traits: { email: "jane@example.gov", phone: "+12025550123" },
            verifiable_addresses: [
              {
                id: "a1",
                value: "jane@example.gov",
                verified: true,
                via: "email",
                status: "completed",
              },
              { id: "a2", value: "+12025550123", verified: false, via: "sms", status: "sent" },
            ],
          },
        },
      },
    });

    const result = await loadVerification(args("/en/verification?flow=v1&channel=sms"));

    if (result instanceof Response) throw new Error("expected data");
    expect(result.data.channel).toBe("sms");
    expect(result.data.addresses).toEqual([
      { value: "jane@example.gov", channel: "email", verified: true },
      { value: "+12025550123", channel: "sms", verified: false },
    ]);
  });

  it("lists nothing for a visitor without a session, and ignores an unknown channel", async () => {
    stubIdentity({
      "GET /self-service/verification/flows": { status: 200, body: sent },
      "GET /sessions/whoami": whoamiSignedOut,
    });

    const result = await loadVerification(args("/en/verification?flow=v1&channel=fax"));

    if (result instanceof Response) throw new Error("expected data");
    expect(result.data.addresses).toEqual([]);
    expect(result.data.channel).toBeUndefined();
  });

  it("keeps the continue link of a passed challenge relative when it is on the portal", async () => {
    stubIdentity({
      "GET /self-service/verification/flows": {
        status: 200,
        body: passed("http://localhost:3000/"),
      },
      "GET /sessions/whoami": whoamiSignedOut,
    });

    const result = await loadVerification(args("/en/verification?flow=v1"));

    if (result instanceof Response) throw new Error("expected data");
    expect(result.data.continueHref).toBe("/");
  });
});

describe("the verification action", () => {
  it("submits a code as the SDK's code method", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/verification": { status: 200, body: wrongCode },
    });

    const result = await submitVerification(
      post("/en/verification?flow=v1", {
        csrf_token: "t",
        method: "code",
        code: " 000000 ",
        channel: "email",
      }),
    );

    expect(calls[0]?.body).toEqual({ method: "code", code: "000000", csrf_token: "t" });
    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.data.flow.ui.messages?.map((message) => message.id)).toEqual([4070006]);
  });

  it("sends a code to a typed e-mail, lowercased", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/verification": { status: 200, body: sent },
    });

    await submitVerification(
      post("/en/verification?flow=v1", {
        csrf_token: "t",
        method: "code",
        email: "Jane@Example.gov",
        channel: "email",
      }),
    );

    expect(calls[0]?.body).toEqual({ method: "code", email: "jane@example.gov", csrf_token: "t" });
  });

  it("sends a typed phone number as E.164, and a phone resend (sms) too", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/verification": { status: 200, body: sent },
    });

    await submitVerification(
      post("/en/verification?flow=v1&channel=sms", {
        csrf_token: "t",
        method: "code",
        email: "(202) 555-0123",
        channel: "sms",
      }),
    );
    await submitVerification(
      post("/en/verification?flow=v1", {
        csrf_token: "t",
        method: "code",
        sms: "+12025550123",
        channel: "sms",
      }),
    );

    // Kratos (and its SDK) take phone numbers in `email` for the code method.
    expect(calls.map((call) => call.body)).toEqual([
      { method: "code", email: "+12025550123", csrf_token: "t" },
      { method: "code", email: "+12025550123", csrf_token: "t" },
    ]);
  });

  it("sends nothing without a code or a valid address, and says which fields to fill in", async () => {
    const { calls } = stubIdentity({});

    const empty = await submitVerification(
      post("/en/verification?flow=v1&channel=sms", {
        csrf_token: "t",
        method: "code",
        code: "",
        email: "",
        channel: "sms",
      }),
    );
    const badPhone = await submitVerification(
      post("/en/verification?flow=v1&channel=sms", {
        csrf_token: "t",
        method: "code",
        email: "12",
        channel: "sms",
      }),
    );

    expect(calls).toHaveLength(0);
    if (empty instanceof Response || badPhone instanceof Response) throw new Error("no data");
    expect(empty.init?.status).toBe(400);
    expect(empty.data).toMatchObject({
      fieldErrors: {
        code: [{ key: "validation.codeOrPhone" }],
        email: [{ key: "validation.codeOrPhone" }],
      },
    });
    expect(badPhone.data).toMatchObject({
      fieldErrors: { email: [{ key: "kratos.4000001.phone" }] },
    });
  });

  it("opens the flow that replaces a finished one (410 use_flow_id), keeping the page's query", async () => {
    stubIdentity({
      "POST /self-service/verification": {
        status: 410,
        body: {
          error: { id: "self_service_flow_replaced", code: 410, status: "Gone" },
          use_flow_id: "v2",
        },
      },
    });

    const response = await submitVerification(
      post("/en/verification?flow=v1&channel=sms&return_to=http%3A%2F%2Flocalhost%3A4000%2F", {
        csrf_token: "t",
        method: "code",
        code: "123456",
        channel: "sms",
      }),
    );

    expect(locationOf(response)).toBe(
      "/en/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F&channel=sms&flow=v2",
    );
  });

  it("follows an expired flow's 303 to its replacement", async () => {
    stubIdentity({
      "POST /self-service/verification": ({ url }) => ({
        status: 303,
        location: `${url.origin}/self-service/verification/flows?id=v3`,
      }),
    });

    const response = await submitVerification(
      post("/en/verification?flow=v1", { csrf_token: "t", method: "code", code: "123456" }),
    );

    expect(locationOf(response)).toBe("/en/verification?flow=v3");
  });

  it("shows the passed challenge with its continue link", async () => {
    stubIdentity({
      "POST /self-service/verification": { status: 200, body: passed("http://localhost:4000/") },
    });

    const result = await submitVerification(
      post("/en/verification?flow=v1", { csrf_token: "t", method: "code", code: "123456" }),
    );

    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.data.flow.state).toBe("passed_challenge");
    expect(result.data.continueHref).toBe("http://localhost:4000/");
  });
});
