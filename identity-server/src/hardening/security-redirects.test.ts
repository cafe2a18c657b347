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
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Open redirects (kratos-behaviour §1.9). The allow-list is the test server's default:
// http://localhost:3000/ and http://localhost:4000/. One foreign URL per flow kind is also in
// flows/flow-lifecycle.test.ts; the exact-match redirect_uri basics in oauth2/token-grants.test.ts
// ("redirect URIs") and the unregistered post-logout URI in oauth2/logout.test.ts.

const foreign = [
  "https://evil.example/",
  "http://evil.example/",
  "//evil.example/",
  "///evil.example/",
  "/\\evil.example/",
  "\\\\evil.example/",
  "/\\/evil.example/",
  "http:/\\/evil.example/",
  "https:evil.example",
  "https://localhost:3000/",
  "http://localhost:3000@evil.example/",
  "http://localhost:3000:@evil.example/",
  "http://user:pass@evil.example/localhost:3000/",
  "http://evil.example\\@localhost:3000/",
  "http://evil.example#@localhost:3000/",
  "http://evil.example?@localhost:3000/",
  "http://localhost.evil.example:3000/",
  "http://localhost.evil.example:4000/",
  "http://localhost:30000/",
  "HTTP://EVIL.EXAMPLE/",
  "http://%65vil.example/",
  "http://evil%2Eexample/",
  " //evil.example/",
  "\t//evil.example/",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.domain)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "javascript://localhost:3000/%0Aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
];

const kinds = ["login", "registration", "recovery", "verification", "settings"] as const;
const json = { accept: "application/json" };

let ts: TestServer;
let signedIn: Browser;
let sessionToken: string;

beforeAll(async () => {
  ts = await startTestServer();
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
  const target = new URL(url, "http://localhost:3000/");
  return (
    target.protocol === "http:" &&
    (target.host === "localhost:3000" || target.host === "localhost:4000")
  );
}

describe("return_to on flow creation", () => {
  it("refuses every foreign or script URL on every browser and API init", async () => {
    for (const kind of kinds) {
      for (const bad of foreign) {
        const label = `${kind} ${JSON.stringify(bad)}`;
        const query = `return_to=${encodeURIComponent(bad)}`;
        const browser = await call(`${ts.publicUrl}/self-service/${kind}/browser?${query}`, {
          jar: kind === "settings" ? signedIn.jar : undefined,
          headers: json,
        });
        expect(browser.status, label).toBe(400);
        expect(errorId(browser), label).toBe("self_service_flow_return_to_forbidden");
        expect(JSON.stringify(browser.body), label).not.toContain('"return_to"');

        const api = await call(`${ts.publicUrl}/self-service/${kind}/api?${query}`, {
          headers: kind === "settings" ? { "x-session-token": sessionToken } : {},
        });
        expect(api.status, label).toBe(400);
        expect(errorId(api), label).toBe("self_service_flow_return_to_forbidden");
      }
    }
  });

  it("never sends an HTML browser anywhere but the UI's error page", async () => {
    for (const bad of foreign) {
      const response = await call(
        `${ts.publicUrl}/self-service/login/browser?return_to=${encodeURIComponent(bad)}`,
      );
      expect(response.status, bad).toBe(303);
      expect(response.headers.get("location"), bad).toMatch(/^http:\/\/localhost:3000\/error\?id=/);
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
  it("refuses a foreign return_to when the logout URL is made and when it is used", async () => {
    const browser = (await passwordSignIn(ts, "redirects@example.com")).browser;
    for (const bad of ["https://evil.example/", "//evil.example/", "javascript:alert(1)"]) {
      const create = await call(
        `${ts.publicUrl}/self-service/logout/browser?return_to=${encodeURIComponent(bad)}`,
        { jar: browser.jar, headers: json },
      );
      expect(create.status, bad).toBe(400);
      expect(errorId(create), bad).toBe("self_service_flow_return_to_forbidden");
    }
    const { logout_token: token } = await browser.api.createBrowserLogoutFlow();
    const use = await call(
      `${ts.publicUrl}/self-service/logout?token=${token}&return_to=${encodeURIComponent("https://evil.example/")}`,
      { jar: browser.jar },
    );
    expect(use.status).toBe(303);
    const location = use.headers.get("location") ?? "";
    expect(allowed(location), location).toBe(true);
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
