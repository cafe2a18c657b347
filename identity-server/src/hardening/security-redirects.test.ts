import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "../oauth2/test-support/oauth2-test-service.ts";
import {
  redirectUri,
  registerClient,
  relyingParty,
  signIn,
} from "../oauth2/test-support/portal-role.ts";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { passwordSignIn, type Browser } from "../test-support/second-factor-helpers.ts";
import { browserDestination, redirectTricks } from "../test-support/redirect-tricks.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Open redirects (kratos-behaviour §1.9). The allow-list is the test server's default:
// http://localhost:3000/ and http://localhost:4000/. The tricks are the project's shared table
// (vendor/security/redirect-tricks.json), also run by the portal's and the demo's redirect tests.
// One foreign URL per flow kind is also in flows/flow-lifecycle.test.ts; the exact-match
// redirect_uri basics in oauth2/token-grants.test.ts ("redirect URIs") and the unregistered
// post-logout URI in oauth2/logout.test.ts.

const tricks = redirectTricks("http://localhost:3000");
const allowedOrigins = ["http://localhost:3000", "http://localhost:4000"];

const kinds = ["login", "registration", "recovery", "verification", "settings"] as const;
const json = { accept: "application/json" };

let ts: TestServer;
let signedIn: Browser;
let sessionToken: string;

beforeAll(async () => {
  // One registration and verification code per trick, all from 127.0.0.1: the per-IP code budget
  // (20 per window) would stop the table part-way.
  ts = await startTestServer({ IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP: "0" });
  sessionToken = (await registerNative(ts, "redirects@example.com")).token;
  signedIn = (await passwordSignIn(ts, "redirects@example.com")).browser;
});
afterAll(async () => {
  await ts.stop();
});

function errorId(response: TestResponse): string | undefined {
  return (response.body as { error?: { id?: string } } | undefined)?.error?.id;
}

/** Whether a URL (absolute or relative to the default return URL) leaves the allow-list. */
function allowed(url: string): boolean {
  const origin = browserDestination(url, "http://localhost:3000/");
  return origin !== undefined && allowedOrigins.includes(origin);
}

/**
 * Allowed, and still on the same site when a client shortens it to its path (as the portal does
 * with URLs on its own origin): a path starting with `//` would become protocol-relative.
 */
function safeTarget(url: string): boolean {
  return allowed(url) && !new URL(url, "http://localhost:3000/").pathname.startsWith("//");
}

/** Refused with Kratos' error, or accepted with a return_to that cannot leave the allow-list. */
function expectRefusedOrSafe(response: TestResponse, label: string): void {
  if (response.status === 400) {
    expect(errorId(response), label).toBe("self_service_flow_return_to_forbidden");
    expect(JSON.stringify(response.body), label).not.toContain('"return_to"');
    return;
  }
  expect(response.status, label).toBe(200);
  const returnTo = (response.body as { return_to?: string }).return_to ?? "";
  expect(safeTarget(returnTo), `${label} accepted as ${JSON.stringify(returnTo)}`).toBe(true);
}

describe("return_to on flow creation", () => {
  it("refuses every trick on every browser and API init, or keeps it on the allowed host", async () => {
    let refused = 0;
    for (const kind of kinds) {
      for (const { value, why } of tricks) {
        const label = `${kind} ${JSON.stringify(value)} (${why})`;
        const query = `return_to=${encodeURIComponent(value)}`;
        const browser = await call(`${ts.publicUrl}/self-service/${kind}/browser?${query}`, {
          jar: kind === "settings" ? signedIn.jar : undefined,
          headers: json,
        });
        expectRefusedOrSafe(browser, `browser ${label}`);
        if (browser.status === 400) refused += 1;

        const api = await call(`${ts.publicUrl}/self-service/${kind}/api?${query}`, {
          headers: kind === "settings" ? { "x-session-token": sessionToken } : {},
        });
        expectRefusedOrSafe(api, `api ${label}`);
      }
    }
    // Most of the table leaves the site; only a few odd same-site paths may pass.
    expect(refused).toBeGreaterThan(kinds.length * (tricks.length - 10));
  });

  it("refuses a path that starts with // although its host is allowed", async () => {
    for (const value of [
      "http://localhost:3000//evil.example/",
      "HTTP://LOCALHOST:3000//evil.example/",
      "http://localhost:3000/.//evil.example/",
      "http://localhost:3000/\\evil.example/",
      "http://localhost:3000/x/..//evil.example/",
      "http://localhost:4000//evil.example/",
      "/.//evil.example/",
      "/%2e//evil.example/",
    ]) {
      const response = await call(
        `${ts.publicUrl}/self-service/login/browser?return_to=${encodeURIComponent(value)}`,
        { headers: json },
      );
      expect(response.status, value).toBe(400);
      expect(errorId(response), value).toBe("self_service_flow_return_to_forbidden");
    }
  });

  it("never sends an HTML browser off the allowed sites", async () => {
    for (const { value, why } of tricks) {
      const response = await call(
        `${ts.publicUrl}/self-service/login/browser?return_to=${encodeURIComponent(value)}`,
      );
      const label = `${JSON.stringify(value)} (${why})`;
      expect(response.status, label).toBe(303);
      const location = response.headers.get("location") ?? "";
      expect(safeTarget(location), `${label} -> ${location}`).toBe(true);
      expect(location, label).toMatch(/^http:\/\/localhost:3000\/(error\?id=|login\?flow=)/);
    }
  });

  it("keeps same-site paths that merely look odd on the allowed host", async () => {
    // Encoded slashes stay in the path, and a scheme-only prefix of the default's own scheme is a
    // relative reference: the browser is still sent to localhost:3000. Kratos keeps the raw value
    // on the flow, so the check resolves it against the default return URL as a browser would.
    for (const odd of [
      "/%2F%2Fevil.example/",
      "/%5Cevil.example/",
      "/dashboard?next=//evil",
      "http:evil.example",
      "http:%2F%2Fevil.example/",
    ]) {
      const response = await call(
        `${ts.publicUrl}/self-service/login/browser?return_to=${encodeURIComponent(odd)}`,
        { headers: json },
      );
      expect(response.status, odd).toBe(200);
      const returnTo = (response.body as { return_to?: string }).return_to ?? "";
      expect(new URL(returnTo, "http://localhost:3000/").host, odd).toBe("localhost:3000");
    }
  });
});

describe("return_to on submission", () => {
  it("ignores a return_to on the submit URL: the answer goes to the flow's return_to", async () => {
    await registerNative(ts, "submit-redirect@example.com");
    const jar = new CookieJar();
    const init = await call(
      `${ts.publicUrl}/self-service/login/browser?return_to=${encodeURIComponent("http://localhost:4000/app")}`,
      { jar, headers: json },
    );
    const flow = init.body as { id: string; ui: { nodes: never[] } };
    const post = await call(
      `${ts.publicUrl}/self-service/login?flow=${flow.id}&return_to=${encodeURIComponent("https://evil.example/")}`,
      {
        jar,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          method: "password",
          identifier: "submit-redirect@example.com",
          password: strongPassword,
          csrf_token: csrfTokenOf(flow),
        }),
      },
    );
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toBe("http://localhost:4000/app");
  });

  it("never answers a submission with a foreign URL, whether JSON or an HTML form post", async () => {
    const bad = encodeURIComponent("//evil.example/");
    let n = 0;
    for (const kind of ["login", "registration"] as const) {
      for (const html of [false, true]) {
        const address = `submit-${(n += 1)}@example.com`;
        if (kind === "login") await registerNative(ts, address);
        const jar = new CookieJar();
        const flow = (
          await call(`${ts.publicUrl}/self-service/${kind}/browser`, { jar, headers: json })
        ).body as { id: string; ui: { nodes: never[] } };
        const fields: Record<string, string> = {
          method: "password",
          password: strongPassword,
          csrf_token: csrfTokenOf(flow),
          ...(kind === "login" ? { identifier: address } : { "traits.email": address }),
        };
        const answer = await call(
          `${ts.publicUrl}/self-service/${kind}?flow=${flow.id}&return_to=${bad}`,
          {
            jar,
            method: "POST",
            headers: html
              ? { "content-type": "application/x-www-form-urlencoded" }
              : { ...json, "content-type": "application/json" },
            body: html ? new URLSearchParams(fields) : JSON.stringify(fields),
          },
        );
        const label = `${kind} ${html ? "html" : "json"} ${answer.status}`;
        const location = answer.headers.get("location");
        if (location !== null) expect(allowed(location), `${label} ${location}`).toBe(true);
        const followed = [
          ...answer.text.matchAll(/"(?:redirect_browser_to|return_to|url|redirect_to)":"([^"]*)"/g),
        ].map((m) => m[1] ?? "");
        for (const url of followed) {
          expect(allowed(url) || url.startsWith(ts.publicUrl), `${label} ${url}`).toBe(true);
        }
      }
    }
  });
});

describe("logout return_to", () => {
  it("refuses every trick when the logout URL is made, or keeps it on the allowed host", async () => {
    const browser = (await passwordSignIn(ts, "redirects@example.com")).browser;
    for (const { value, why } of tricks) {
      const label = `${JSON.stringify(value)} (${why})`;
      const create = await call(
        `${ts.publicUrl}/self-service/logout/browser?return_to=${encodeURIComponent(value)}`,
        { jar: browser.jar, headers: json },
      );
      if (create.status === 400) {
        expect(errorId(create), label).toBe("self_service_flow_return_to_forbidden");
        continue;
      }
      expect(create.status, label).toBe(200);
      const logoutUrl = new URL((create.body as { logout_url: string }).logout_url);
      const returnTo = logoutUrl.searchParams.get("return_to") ?? "";
      expect(safeTarget(returnTo), `${label} -> ${returnTo}`).toBe(true);
    }
  });

  it("sends the browser only to the allowed sites when a logout URL carrying a trick is used", async () => {
    for (const { value, why } of tricks) {
      const label = `${JSON.stringify(value)} (${why})`;
      const browser = (await passwordSignIn(ts, "redirects@example.com")).browser;
      const { logout_token: token } = await browser.api.createBrowserLogoutFlow();
      const use = await call(
        `${ts.publicUrl}/self-service/logout?token=${token}&return_to=${encodeURIComponent(value)}`,
        { jar: browser.jar },
      );
      expect(use.status, label).toBe(303);
      const location = use.headers.get("location") ?? "";
      expect(safeTarget(location), `${label} -> ${location}`).toBe(true);
    }
  });
});

describe("after_verification_return_to", () => {
  it("points the finished verification's continue link only at the allowed sites", async () => {
    let n = 0;
    for (const { value, why } of tricks) {
      const label = `${JSON.stringify(value)} (${why})`;
      const email = `after-verification-${(n += 1)}@example.com`;
      const jar = new CookieJar();
      const init = await call(
        `${ts.publicUrl}/self-service/registration/browser?after_verification_return_to=${encodeURIComponent(value)}`,
        { jar, headers: json },
      );
      expect(init.status, label).toBe(200);
      const registration = init.body as { id: string; ui: { nodes: never[] } };
      const registered = await call(
        `${ts.publicUrl}/self-service/registration?flow=${registration.id}`,
        {
          jar,
          method: "POST",
          headers: { ...json, "content-type": "application/json" },
          body: JSON.stringify({
            method: "password",
            password: strongPassword,
            traits: { email },
            csrf_token: csrfTokenOf(registration),
          }),
        },
      );
      expect(registered.status, label).toBe(200);
      const show = (
        registered.body as { continue_with?: { action: string; flow?: { id: string } }[] }
      ).continue_with?.find((c) => c.action === "show_verification_ui");
      const flowId = show?.flow?.id ?? "";
      const sent = await call(`${ts.publicUrl}/self-service/verification/flows?id=${flowId}`, {
        jar,
        headers: json,
      });
      const done = await call(`${ts.publicUrl}/self-service/verification?flow=${flowId}`, {
        jar,
        method: "POST",
        headers: { ...json, "content-type": "application/json" },
        body: JSON.stringify({
          method: "code",
          code: await ts.latestCode(email),
          csrf_token: csrfTokenOf(sent.body as { ui: { nodes: never[] } }),
        }),
      });
      expect(done.status, label).toBe(200);
      const flow = done.body as {
        state: string;
        ui: { nodes: { attributes: { id?: string; href?: string } }[] };
      };
      expect(flow.state, label).toBe("passed_challenge");
      const href = flow.ui.nodes.find((node) => node.attributes.id === "continue")?.attributes.href;
      expect(safeTarget(href ?? ""), `${label} -> ${href ?? "(no link)"}`).toBe(true);
    }
  });
});

describe("OAuth2 redirect URIs", () => {
  let service: OAuth2TestService;
  let rp: oidc.Configuration;
  const postLogoutUri = "http://127.0.0.1:5555/signed-out";

  beforeAll(async () => {
    service = await startOAuth2TestService();
    const client = await registerClient(service, {
      redirect_uris: [redirectUri],
      post_logout_redirect_uris: [postLogoutUri],
      grant_types: ["authorization_code"],
      scope: "openid",
    });
    rp = await relyingParty(service, client);
  });
  afterAll(() => service.stop());

  // Near misses of http://127.0.0.1:5555/callback and …/signed-out a prefix or host check would let by.
  const nearMisses = (registered: string): string[] => {
    const url = new URL(registered);
    return [
      `${registered}/`,
      `${registered}/../../evil`,
      `${registered}%2F..%2Fevil`,
      `${registered}#frag`,
      `${registered}?next=https://evil.example/`,
      registered.toUpperCase(),
      registered.replace("http:", "https:"),
      registered.replace("127.0.0.1:5555", "127.0.0.1:5555@evil.example"),
      registered.replace("127.0.0.1:5555", "evil.example"),
      registered.replace("127.0.0.1:5555", "127.0.0.1:5555.evil.example"),
      `//${url.host}${url.pathname}`,
      url.pathname,
      "https://evil.example/callback",
      "javascript:alert(1)",
      // The shared table, aimed at the registered URI's own origin.
      ...redirectTricks(url.origin).map((trick) => trick.value),
    ];
  };

  it("never redirects to a redirect_uri that is not exactly a registered one", async () => {
    for (const wrong of nearMisses(redirectUri)) {
      const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: wrong, scope: "openid" });
      const response = await service.browser().get(url.href);
      expect(response.status, wrong).toBe(400);
      expect(response.location, wrong).toBeUndefined();
      expect(response.text, wrong).not.toContain('evil.example/callback"');
    }
  });

  it("never redirects to a post_logout_redirect_uri that is not exactly a registered one", async () => {
    const browser = service.browser();
    const { tokens } = await signIn(service, browser, rp, { subject: "redirect-user" });
    for (const wrong of nearMisses(postLogoutUri)) {
      const endSession = oidc.buildEndSessionUrl(rp, {
        id_token_hint: tokens.id_token ?? "",
        post_logout_redirect_uri: wrong,
      });
      const answer = await browser.get(endSession.href);
      expect(answer.status, wrong).toBe(400);
      expect(answer.location, wrong).toBeUndefined();
    }
  });
});
