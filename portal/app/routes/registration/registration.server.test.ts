// @vitest-environment node
import { RegistrationFlowFromJSON } from "@portal/client";
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { findInput } from "../../flows/node-filters.ts";
import { loadRegistration, submitRegistration } from "./registration.server.ts";
import { messages } from "../../validation/messages.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

function postForm(path: string, fields: Record<string, string>) {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { cookie: "csrf_token_abc=secret" },
    }),
    context: new RouterContextProvider(),
    locale: "en" as const,
    url,
  };
}

const valid = {
  csrf_token: "token",
  "traits.email": " Jane.Doe@Example.gov ",
  confirm_email: "jane.doe@example.gov",
  password: "Correct-Horse-7",
  confirm_password: "Correct-Horse-7",
  method: "password",
};

describe("the registration action without JavaScript", () => {
  it("answers invalid input with every message on its field and the e-mails kept", async () => {
    const { calls } = stubIdentity({});

    const result = await submitRegistration(
      postForm("/en/registration?flow=f1", {
        ...valid,
        "traits.email": "Jane@",
        confirm_email: "JANE@other.gov",
        password: "weak",
        confirm_password: "different",
      }),
    );

    expect(calls).toHaveLength(0);
    if (result instanceof Response || !("fieldErrors" in result.data)) throw new Error("no errors");
    expect(result.init?.status).toBe(400);
    expect(result.data.fieldErrors).toEqual({
      "traits.email": [messages.invalidEmail],
      confirm_email: [messages.emailsMustMatch],
      password: [messages.passwordStrength],
      confirm_password: [messages.passwordsMustMatch],
    });
    expect(result.data.values).toEqual({
      "traits.email": "jane@",
      confirm_email: "jane@other.gov",
    });
  });

  it("refuses a password the identity service would take but spec §5 does not (id 203)", async () => {
    const { calls } = stubIdentity({});
    // Long and not on any list, but without an uppercase letter, a digit or a special character.
    const password = "correcthorsebatterystaple";

    const result = await submitRegistration(
      postForm("/en/registration?flow=f1", { ...valid, password, confirm_password: password }),
    );

    expect(calls).toHaveLength(0);
    if (result instanceof Response || !("fieldErrors" in result.data)) throw new Error("no errors");
    expect(result.init?.status).toBe(400);
    expect(result.data.fieldErrors).toEqual({ password: [messages.passwordStrength] });
    expect(messages.passwordStrength.id).toBe(203);
  });

  it("sends the password it checked when the form repeats the field (a second, weak password was sent unchecked)", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/registration": {
        status: 200,
        body: {
          identity: { id: "i1" },
          continue_with: [
            { action: "redirect_browser_to", redirect_browser_to: "http://localhost:3000/" },
          ],
        },
      },
    });
    const fields = new URLSearchParams(valid);
    fields.append("password", "qmvhtzrpxkwjdnbl");
    const url = new URL("/en/registration?flow=f1", "http://localhost:3000");

    await submitRegistration({
      request: new Request(url, { method: "POST", body: fields }),
      context: new RouterContextProvider(),
      locale: "en",
      url,
    });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({ password: valid.password });
  });

  it("requires every field", async () => {
    stubIdentity({});

    const result = await submitRegistration(
      postForm("/en/registration?flow=f1", { csrf_token: "t", method: "password" }),
    );

    if (result instanceof Response || !("fieldErrors" in result.data)) throw new Error("no errors");
    expect(Object.values(result.data.fieldErrors)).toEqual([
      [messages.required],
      [messages.required],
      [messages.required],
      [messages.required],
    ]);
  });
});

describe("the registration action, submitting", () => {
  it("sends nested, trimmed, lowercased traits and the password, never the confirm fields", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/registration": {
        status: 200,
        body: {
          identity: { id: "i1" },
          continue_with: [
            { action: "redirect_browser_to", redirect_browser_to: "http://localhost:3000/" },
          ],
        },
        setCookies: ["ory_kratos_session=s; Path=/; HttpOnly"],
      },
    });

    const response = await submitRegistration(postForm("/en/registration?flow=f1", valid));

    expect(calls[0]?.url.searchParams.get("flow")).toBe("f1");
    expect(calls[0]?.headers.get("cookie")).toBe("csrf_token_abc=secret");
    expect(calls[0]?.body).toEqual({
      method: "password",
      password: "Correct-Horse-7",
      traits: { email: "jane.doe@example.gov" },
      csrf_token: "token",
    });
    expect(response).toBeInstanceOf(Response);
    if (!(response instanceof Response)) return;
    // The portal's own origin stays relative: the start page decides where the user belongs.
    expect(response.headers.get("location")).toBe("/");
    expect(response.headers.getSetCookie()).toEqual(["ory_kratos_session=s; Path=/; HttpOnly"]);
  });

  it("signs up with a passkey: no password checked or sent, the attestation passed on", async () => {
    const { calls } = stubIdentity({
      "POST /self-service/registration": {
        status: 200,
        body: {
          identity: { id: "i1" },
          continue_with: [
            { action: "redirect_browser_to", redirect_browser_to: "http://localhost:3000/" },
          ],
        },
        setCookies: ["ory_kratos_session=s; Path=/; HttpOnly"],
      },
    });
    const attestation = '{"id":"bmV3","response":{"attestationObject":"YQ"}}';

    const response = await submitRegistration(
      postForm("/en/registration?flow=f1", {
        csrf_token: "token",
        "traits.email": " Jane.Doe@Example.gov ",
        confirm_email: "jane.doe@example.gov",
        password: "",
        confirm_password: "",
        passkey_register: attestation,
        method: "passkey",
      }),
    );

    expect(calls[0]?.body).toEqual({
      method: "passkey",
      traits: { email: "jane.doe@example.gov" },
      passkey_register: attestation,
      csrf_token: "token",
    });
    expect(response).toBeInstanceOf(Response);
  });

  it("still checks the e-mail address of a passkey sign-up", async () => {
    const { calls } = stubIdentity({});
    const result = await submitRegistration(
      postForm("/en/registration?flow=f1", {
        csrf_token: "token",
        "traits.email": "jane@",
        confirm_email: "jane@",
        passkey_register: "{}",
        method: "passkey",
      }),
    );
    expect(calls).toHaveLength(0);
    if (result instanceof Response || !("fieldErrors" in result.data)) throw new Error("no errors");
    expect(result.data.fieldErrors).toEqual({ "traits.email": [messages.invalidEmail] });
  });

  it("goes to verification first when continue_with asks for it", async () => {
    stubIdentity({
      "POST /self-service/registration": {
        status: 200,
        body: {
          continue_with: [
            { action: "redirect_browser_to", redirect_browser_to: "http://localhost:3000/" },
            // The identity service's real answer: redirect first, the flow with its UI URL.
            {
              action: "show_verification_ui",
              flow: {
                id: "v1",
                verifiable_address: "jane.doe@example.gov",
                url: "http://localhost:3000/verification?flow=v1",
              },
            },
          ],
        },
      },
    });

    const response = await submitRegistration(postForm("/en/registration?flow=f1", valid));

    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/verification?flow=v1",
    );
  });

  it("shows the identity service's own messages, e.g. a duplicate account (4000007)", async () => {
    const flow = RegistrationFlowFromJSON(
      vendorJson("elements.registration.password.initial.json"),
    );
    const emailNode = flow.ui.nodes.find((node) => findInput([node], "traits.email"));
    emailNode?.messages.push({
      id: 4000007,
      text: "An account with the same identifier (email, phone, username, ...) exists already.",
      type: "error",
    });
    stubIdentity({ "POST /self-service/registration": { status: 400, body: flow } });

    const result = await submitRegistration(postForm("/en/registration?flow=f1", valid));

    if (result instanceof Response || !("flow" in result.data)) throw new Error("no flow");
    expect(result.init?.status).toBe(400);
    const node = result.data.flow.ui.nodes.find(
      (candidate) => "name" in candidate.attributes && candidate.attributes.name === "traits.email",
    );
    expect(node?.messages[0]?.id).toBe(4000007);
    expect(result.data.values.confirm_email).toBe("jane.doe@example.gov");
  });
});

describe("the registration loader", () => {
  it("creates a flow when there is none and redirects to it", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/registration/browser": {
        status: 200,
        body: {
          ...(vendorJson("elements.registration.password.initial.json") as object),
          id: "r1",
        },
        setCookies: ["csrf_token_abc=fresh; Path=/"],
      },
    });
    const url = new URL(
      "http://localhost:3000/en/registration?return_to=http%3A%2F%2Flocalhost%3A4000%2F",
    );

    const response = await loadRegistration({
      request: new Request(url),
      context: new RouterContextProvider(),
      locale: "en",
      url,
    });

    expect(calls[0]?.url.searchParams.get("return_to")).toBe("http://localhost:4000/");
    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/registration?return_to=http%3A%2F%2Flocalhost%3A4000%2F&flow=r1",
    );
  });

  it("passes an OAuth2 login challenge on when creating the flow, and keeps it in the URL", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/registration/browser": {
        status: 200,
        body: {
          ...(vendorJson("elements.registration.password.initial.json") as object),
          id: "r2",
        },
      },
    });
    const url = new URL("http://localhost:3000/en/registration?login_challenge=ch-1");

    const response = await loadRegistration({
      request: new Request(url),
      context: new RouterContextProvider(),
      locale: "en",
      url,
    });

    expect(calls[0]?.url.searchParams.get("login_challenge")).toBe("ch-1");
    expect(response instanceof Response && response.headers.get("location")).toBe(
      "/en/registration?login_challenge=ch-1&flow=r2",
    );
  });

  it("keeps ?nodna= across the flow-creating redirect and tells the page (works without JavaScript)", async () => {
    const initial = vendorJson("elements.registration.password.initial.json") as object;
    stubIdentity({
      "GET /self-service/registration/browser": { status: 200, body: { ...initial, id: "r3" } },
      "GET /self-service/registration/flows": { status: 200, body: { ...initial, id: "r3" } },
    });
    const create = new URL("http://localhost:3000/en/registration?nodna=1");
    const redirect = await loadRegistration({
      request: new Request(create),
      context: new RouterContextProvider(),
      locale: "en",
      url: create,
    });
    const location = redirect instanceof Response ? redirect.headers.get("location") : null;
    expect(location).toBe("/en/registration?flow=r3&nodna=1");

    const shown = new URL(location ?? "", "http://localhost:3000");
    const page = await loadRegistration({
      request: new Request(shown),
      context: new RouterContextProvider(),
      locale: "en",
      url: shown,
    });
    if (page instanceof Response) throw new Error("expected the page's data");
    expect(page.data.nodna).toBe(true);
  });
});
