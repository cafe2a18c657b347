// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../test/identity-stub.ts";
import { vendorJson } from "../../test/vendor-flows.ts";
import type { PageAddress } from "../http/page-address.ts";
import { createLoadContext } from "../http/request-context.ts";
import type { Locale } from "../i18n/locales.ts";
import { loadLogin } from "../routes/login/login.server.ts";
import { loadRecovery } from "../routes/recovery/recovery.server.ts";
import { loadRegistration } from "../routes/registration/registration.server.ts";
import { loadSettings } from "../routes/settings/settings.server.ts";
import { loadVerification } from "../routes/verification/verification.server.ts";

// A flow page opened as a document without ?flow= (issue 20) renders the flow it creates in the
// same response: one identity call, its cookies on the page, the address naming the flow noted
// for entry.server. Every outcome that was a redirect before stays one.

afterEach(() => {
  vi.unstubAllGlobals();
});

const csrfCookie = "csrf_token_abc=fresh; Path=/; HttpOnly; SameSite=Lax";

/** A document request's loader arguments (server.ts gives those a page address). */
function documentArgs(path: string, locale: Locale = "en") {
  const url = new URL(path, "http://localhost:3000");
  const pageAddress: PageAddress = {};
  return {
    request: new Request(url, { headers: { cookie: "csrf_token_abc=secret" } }),
    context: createLoadContext({
      nonce: "n",
      forwardedFor: "203.0.113.9",
      correlationId: "c-1",
      pageAddress,
    }),
    locale,
    url,
    pageAddress,
  };
}

const pages = [
  {
    page: "login",
    load: loadLogin,
    flow: vendorJson("elements.login.1fa.password.initial.json"),
  },
  {
    page: "registration",
    load: loadRegistration,
    flow: vendorJson("elements.registration.password.initial.json"),
  },
  {
    page: "recovery",
    load: loadRecovery,
    flow: vendorJson("elements.recovery.code.initial.json"),
  },
  {
    page: "verification",
    load: loadVerification,
    flow: vendorJson("elements.verification.code.initial.json"),
  },
] as const;

describe("a flow page opened without a flow, as a document", () => {
  for (const { page, load, flow } of pages) {
    it(`${page}: renders the created flow with its cookie, at the address that names it`, async () => {
      const { calls } = stubIdentity({
        [`GET /self-service/${page}/browser`]: {
          status: 200,
          body: { ...(flow as object), id: "new-flow" },
          setCookies: [csrfCookie],
        },
        "GET /sessions/whoami": { status: 401, body: { error: { id: "session_inactive" } } },
      });
      const args = documentArgs(`/es/${page}?return_to=http%3A%2F%2Flocalhost%3A4000%2F`, "es");

      const result = await load(args);

      if (result instanceof Response) throw new Error(`redirected: ${result.status}`);
      expect(result.data.flow.id).toBe("new-flow");
      expect(result.init?.headers).toBeDefined();
      expect(new Headers(result.init?.headers).getSetCookie()).toContain(csrfCookie);
      expect(args.pageAddress.search).toBe(
        "?return_to=http%3A%2F%2Flocalhost%3A4000%2F&flow=new-flow",
      );
      // Created once, in the page's language, with return_to; never read back.
      const flowCalls = calls.filter((call) => call.url.pathname.startsWith("/self-service/"));
      expect(flowCalls.map((call) => call.url.pathname)).toEqual([`/self-service/${page}/browser`]);
      expect(flowCalls[0]?.url.searchParams.get("return_to")).toBe("http://localhost:4000/");
      expect(flowCalls[0]?.headers.get("accept-language")).toBe("es");
      expect(flowCalls[0]?.headers.get("cookie")).toBe("csrf_token_abc=secret");
    });
  }

  it("settings: renders the created flow with its cookie, beside the signed-in person's sessions", async () => {
    const changed = vendorJson("elements.settings.password.changed.json") as object;
    const withIdentity = vendorJson("kratos.fixture.settings-flow.with-identity.json") as {
      identity: unknown;
    };
    const { calls } = stubIdentity({
      "GET /self-service/settings/browser": {
        status: 200,
        body: { ...changed, state: "show_form", identity: withIdentity.identity, id: "s1" },
        setCookies: [csrfCookie],
      },
      "GET /sessions": { status: 200, body: [] },
      "GET /sessions/whoami": {
        status: 200,
        body: vendorJson("kratos.fixture.session.aal2-password-totp.json"),
      },
    });
    const args = documentArgs("/en/settings");

    const result = await loadSettings(args);

    if (result instanceof Response) throw new Error(`redirected: ${result.status}`);
    expect(result.data.flow.id).toBe("s1");
    expect(new Headers(result.init?.headers).getSetCookie()).toContain(csrfCookie);
    expect(args.pageAddress.search).toBe("?flow=s1");
    expect(calls.map((call) => call.url.pathname)).not.toContain("/self-service/settings/flows");
  });

  it("login: passes on the OAuth2 challenge, refresh and aal; keeps notice and invalid", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/login/browser": {
        status: 200,
        body: { ...(pages[0].flow as object), id: "f1" },
      },
    });
    const query = "login_challenge=ch-1&refresh=true&aal=aal1&notice=expired&invalid=true";
    const args = documentArgs(`/en/login?${query}`);

    const result = await loadLogin(args);

    if (result instanceof Response) throw new Error("expected the page");
    const sent = calls[0]?.url.searchParams;
    expect(sent?.get("login_challenge")).toBe("ch-1");
    expect(sent?.get("refresh")).toBe("true");
    expect(sent?.get("aal")).toBe("aal1");
    expect(result.data.notice).toBe("notice.expired");
    expect(result.data.invalid).toBe(true);
    // The address keeps every parameter a submission or a restart reads.
    expect(args.pageAddress.search).toBe(`?${query}&flow=f1`);
  });

  it("replaces an empty flow parameter instead of adding a second one", async () => {
    stubIdentity({
      "GET /self-service/recovery/browser": {
        status: 200,
        body: { ...(pages[2].flow as object), id: "r1" },
      },
    });
    const args = documentArgs("/en/recovery?flow=&return_to=x");

    await loadRecovery(args);

    expect(args.pageAddress.search).toBe("?flow=r1&return_to=x");
  });

  it("verification: reads the session beside the creation, for the signed-in person's addresses", async () => {
    stubIdentity({
      "GET /self-service/verification/browser": {
        status: 200,
        body: { ...(pages[3].flow as object), id: "v1" },
      },
      "GET /sessions/whoami": {
        status: 200,
        body: vendorJson("kratos.fixture.session.aal2-password-totp.json"),
      },
    });

    const result = await loadVerification(documentArgs("/en/verification"));

    if (result instanceof Response) throw new Error("expected the page");
    expect(result.data.signedIn).toBe(true);
    expect(result.data.addresses.length).toBeGreaterThan(0);
  });

  it("still redirects a signed-in visitor (session_already_available), with the answer's cookies", async () => {
    stubIdentity({
      "GET /self-service/login/browser": {
        status: 400,
        body: { error: { id: "session_already_available", code: 400 } },
        setCookies: [csrfCookie],
      },
      "GET /sessions/whoami": { status: 200, body: { id: "s1", active: true } },
    });
    const args = documentArgs("/en/login");

    const response = await loadLogin(args);

    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en");
    expect(response.headers.getSetCookie()).toEqual([csrfCookie]);
    expect(args.pageAddress.search).toBeUndefined();
  });

  it("still follows browser_location_change_required to where the identity service says", async () => {
    stubIdentity({
      "GET /self-service/settings/browser": {
        status: 422,
        body: {
          error: { id: "browser_location_change_required", code: 422 },
          redirect_browser_to: "http://localhost:3000/en/login?aal=aal2",
        },
      },
    });
    const args = documentArgs("/en/settings");

    const response = await loadSettings(args);

    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.headers.get("location")).toBe("/en/login?aal=aal2");
    expect(args.pageAddress.search).toBeUndefined();
  });

  it("never sends the browser to another site's return_to: the identity service's refusal restarts without it", async () => {
    stubIdentity({
      "GET /self-service/login/browser": {
        status: 400,
        body: { error: { id: "self_service_flow_return_to_forbidden", code: 400 } },
      },
    });
    const args = documentArgs("/en/login?return_to=https%3A%2F%2Fevil.example%2F");

    const response = await loadLogin(args);

    if (!(response instanceof Response)) throw new Error("expected a redirect");
    expect(response.headers.get("location")).toBe("/en/login?notice=return-to-forbidden");
    expect(args.pageAddress.search).toBeUndefined();
  });

  it("answers a rate-limited creation with the 429 page, not a render", async () => {
    stubIdentity({
      "GET /self-service/registration/browser": {
        status: 429,
        body: { error: { code: 429, status: "Too Many Requests" } },
      },
    });
    const args = documentArgs("/en/registration");

    const thrown: unknown = await loadRegistration(args).catch((error: unknown) => error);

    expect(thrown instanceof Response && thrown.status).toBe(429);
    expect(args.pageAddress.search).toBeUndefined();
  });

  it("answers a creation the identity service refused as bad input (400) with a 400 page, not a 502", async () => {
    stubIdentity({
      "GET /self-service/login/browser": {
        status: 400,
        body: {
          error: {
            id: "invalid_request",
            code: 400,
            status: "Bad Request",
            reason: "The login_challenge is not valid.",
            message: "The request was malformed or contained invalid parameters",
          },
        },
      },
    });
    const args = documentArgs("/en/login?login_challenge=abc");

    const thrown: unknown = await loadLogin(args).catch((error: unknown) => error);

    expect(thrown instanceof Response && thrown.status).toBe(400);
  });
});
