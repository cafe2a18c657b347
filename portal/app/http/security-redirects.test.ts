// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  browserDestination,
  redirectTricks,
  type RedirectTrick,
} from "../../../identity-server/src/test-support/redirect-tricks.ts";
import { stubIdentity } from "../../test/identity-stub.ts";
import { vendorJson } from "../../test/vendor-flows.ts";
import { loader as errorLoader } from "../routes/error.tsx";
import { loadLogin, submitLogin } from "../routes/login/login.server.ts";
import { action as logoutAction } from "../routes/logout.tsx";
import { submitRegistration } from "../routes/registration/registration.server.ts";
import { submitSettings } from "../routes/settings/settings.server.ts";
import { action as themeAction } from "../routes/theme.ts";
import { continueHref } from "../routes/verification/verification.server.ts";
import { localizedPath } from "../ui/language-selector.tsx";
import { portalDestination, relativeToPortal } from "./portal-destination.server.ts";
import { createLoadContext } from "./request-context.ts";

// Every place where the portal sends the browser on, fed the project's shared table of redirect
// tricks (vendor/security/redirect-tricks.json; the identity server's and the demo's tests run it
// too). Each Location is resolved with the WHATWG URL parser against the request URL, as a
// browser does, and must land on an origin the portal is configured with (its own, the agency
// product, the OAuth2 service), or be a refusal.
//
// The identity service here is a stub that lets every trick through (return_to on the flow,
// redirect_browser_to, logout URLs): an allow-list that reads URLs differently than browsers
// (Kratos uses Go's net/url) does that. The portal cannot know that allow-list, so an absolute
// http(s) URL on an unknown origin, written exactly as a browser reads it, is the identity
// service's decision and is followed as it is; nothing else is.

afterEach(() => {
  vi.unstubAllGlobals();
});

const portal = "http://localhost:3000";
const configuredOrigins = [portal, "http://localhost:4000", "http://localhost:4444"];
const tricks = redirectTricks(portal);

/** Where a browser on `requestUrl` ends up for this Location; fails the test when it leaves. */
function expectLands(
  location: string | null,
  requestUrl: string,
  trick: RedirectTrick,
  options: { identityDecided: boolean },
): void {
  const label = `${JSON.stringify(trick.value)} (${trick.why}) -> ${JSON.stringify(location)}`;
  expect(location, label).not.toBeNull();
  const origin = browserDestination(location ?? "", requestUrl);
  if (origin !== undefined && configuredOrigins.includes(origin)) return;
  const decidedByIdentity = options.identityDecided && location === trick.value;
  expect(decidedByIdentity && new URL(trick.value).href === trick.value, label).toBe(true);
}

function routeArgs(path: string, init?: RequestInit) {
  const url = new URL(path, portal);
  return {
    request: new Request(url, init),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c" }),
    locale: "en" as const,
    url,
  };
}

function post(path: string, fields: Record<string, string>) {
  return routeArgs(path, { method: "POST", body: new URLSearchParams(fields) });
}

function locationOf(result: unknown): string | null {
  if (!(result instanceof Response)) throw new Error("expected a redirect");
  return result.headers.get("location");
}

const loginFields = {
  csrf_token: "t",
  identifier: "a@example.gov",
  password: "pw",
  method: "password",
};
const loginFlow = vendorJson("elements.login.1fa.password.initial.json") as object;

describe("redirects the browser asks for", () => {
  it("the theme switch goes back only to a path of the portal", async () => {
    for (const trick of tricks) {
      const request = new Request(`${portal}/theme`, {
        method: "POST",
        body: new URLSearchParams({ theme: "dark", return_to: trick.value }),
      });
      const response = await themeAction({
        request,
        params: {},
        context: new RouterContextProvider(),
        url: new URL(request.url),
        pattern: "/theme",
      });
      expectLands(locationOf(response), request.url, trick, { identityDecided: false });
    }
  });

  it("the language switch links only to a path of the portal, whatever page it is on", () => {
    for (const trick of tricks) {
      // The page the browser is on: the trick as its path (when it is one) and as its query.
      const path = trick.value.startsWith("/") ? trick.value : `/${trick.value}`;
      const page = new URL(`${portal}${encodeURI(path)}`.replace(/%25/g, "%"));
      page.searchParams.set("return_to", trick.value);
      const href = localizedPath(page.pathname, page.search, "es");
      expectLands(href, page.href, trick, { identityDecided: false });
    }
  });

  it("the error page sends an unknown id to the start page", async () => {
    for (const trick of tricks) {
      stubIdentity({ "GET /self-service/errors": { status: 404, body: { error: { code: 404 } } } });
      const url = new URL(`${portal}/en/error`);
      url.searchParams.set("id", trick.value);
      const response = await errorLoader({
        request: new Request(url),
        params: { lang: "en" },
        context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c" }),
        url,
        pattern: "/:lang/error",
      });
      expectLands(locationOf(response), url.href, trick, { identityDecided: false });
    }
  });

  it("logout ignores a return_to and goes only where the identity service's logout URL is", async () => {
    for (const trick of tricks) {
      stubIdentity({
        "GET /self-service/logout/browser": {
          status: 200,
          body: { logout_url: trick.value, logout_token: "t" },
        },
      });
      const url = new URL(`${portal}/en/logout`);
      url.searchParams.set("return_to", trick.value);
      const response = await logoutAction({
        // The portal's own sign-out form (a GET only asks first, logout.test).
        request: new Request(url, {
          method: "POST",
          body: new URLSearchParams({ return_to: trick.value }),
          headers: { cookie: "ory_kratos_session=s", "sec-fetch-site": "same-origin" },
        }),
        params: { lang: "en" },
        context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c" }),
        url,
        pattern: "/:lang/logout",
      });
      expectLands(locationOf(response), url.href, trick, { identityDecided: true });
    }
  });
});

describe("redirects to where the identity service's answer points", () => {
  it("login and registration go to the flow's return_to only when it stays put", async () => {
    for (const trick of tricks) {
      stubIdentity({
        "POST /self-service/login": { status: 200, body: { session: { id: "s1" } } },
        "GET /self-service/login/flows": {
          status: 200,
          body: { ...loginFlow, return_to: trick.value },
        },
        "POST /self-service/registration": { status: 200, body: { identity: { id: "i1" } } },
        "GET /self-service/registration/flows": {
          status: 200,
          body: { ...loginFlow, return_to: trick.value },
        },
      });
      const login = post("/en/login?flow=f1", loginFields);
      expectLands(locationOf(await submitLogin(login)), login.url.href, trick, {
        identityDecided: true,
      });
      const registration = post("/en/registration?flow=f1", {
        csrf_token: "t",
        method: "password",
        "traits.email": "a@example.gov",
        password: "Correct-Horse-7-battery",
      });
      const answer = await submitRegistration(registration);
      if (answer instanceof Response) {
        expectLands(locationOf(answer), registration.url.href, trick, { identityDecided: true });
      }
    }
  });

  it("login and settings follow redirect_browser_to only when it stays put", async () => {
    for (const trick of tricks) {
      const continueWith = {
        continue_with: [{ action: "redirect_browser_to", redirect_browser_to: trick.value }],
      };
      stubIdentity({
        "POST /self-service/login": {
          status: 200,
          body: { session: { id: "s1" }, ...continueWith },
        },
        "POST /self-service/settings": {
          status: 422,
          body: {
            error: { id: "browser_location_change_required", code: 422 },
            redirect_browser_to: trick.value,
          },
        },
      });
      const login = post("/en/login?flow=f1", loginFields);
      expectLands(locationOf(await submitLogin(login)), login.url.href, trick, {
        identityDecided: true,
      });
      const settings = post("/en/settings?flow=s1", {
        csrf_token: "t",
        method: "password",
        password: "Correct-Horse-7-battery",
        confirm_password: "Correct-Horse-7-battery",
      });
      expectLands(locationOf(await submitSettings(settings)), settings.url.href, trick, {
        identityDecided: true,
      });
    }
  });

  it("a signed-in browser in an OAuth2 login continues to its return_to only when it stays put", async () => {
    for (const trick of tricks) {
      stubIdentity({
        "GET /self-service/login/browser": {
          status: 400,
          body: { error: { id: "session_already_available", code: 400 } },
        },
        "GET /sessions/whoami": { status: 200, body: { id: "s1", active: true } },
      });
      const url = new URL(`${portal}/en/login`);
      url.searchParams.set("login_challenge", "ch-1");
      url.searchParams.set("return_to", trick.value);
      const args = routeArgs(url.href);
      expectLands(locationOf(await loadLogin(args)), url.href, trick, { identityDecided: true });
    }
  });

  it("the finished verification's continue link (after_verification_return_to) stays put", () => {
    for (const trick of tricks) {
      const href = continueHref([
        {
          type: "a",
          group: "code",
          attributes: {
            node_type: "a",
            id: "continue",
            href: trick.value,
            title: { id: 1070009, text: "Continue", type: "info" },
          },
          messages: [],
          meta: {},
        },
      ]);
      expectLands(href ?? null, `${portal}/en/verification?flow=v1`, trick, {
        identityDecided: true,
      });
    }
  });
});

describe("portalDestination and relativeToPortal", () => {
  it("never make a URL of the portal's own origin protocol-relative", () => {
    for (const value of [
      `${portal}//evil.example/x?y#z`,
      `${portal}/.//evil.example/`,
      `${portal}/\\evil.example/`,
      `${portal}/\\\\evil.example/`,
      `${portal}/x/..//evil.example/`,
      `${portal}/%2F%2Fevil.example/`,
      `${portal}/\t/evil.example/`,
      "HTTP://LOCALHOST:3000//evil.example/",
      "http://user@localhost:3000//evil.example/",
    ]) {
      const { to } = portalDestination(value, "en");
      expect(to.startsWith("/") && !to.startsWith("//"), `${value} -> ${to}`).toBe(true);
      expect(browserDestination(to, `${portal}/en/login`), `${value} -> ${to}`).toBe(portal);
      const link = relativeToPortal(value);
      expect(browserDestination(link, `${portal}/en/login`), `${value} -> ${link}`).toBe(portal);
    }
    expect(portalDestination(`${portal}//evil.example/x?y#z`, "en").to).toBe("/evil.example/x?y#z");
  });

  it("refuse script URLs and URLs a browser reads as another host than they seem to name", () => {
    for (const value of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "/\\evil.example/",
      "http://evil.example\\@localhost:3000/",
      "HTTP://EVIL.EXAMPLE/",
      "http://%65vil.example/",
    ]) {
      expect(portalDestination(value, "es"), value).toEqual({ to: "/es", document: false });
      expect(relativeToPortal(value), value).toBe("/");
    }
  });
});
