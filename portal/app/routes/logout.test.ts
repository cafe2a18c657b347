// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../test/identity-stub.ts";
import { createLoadContext } from "../http/request-context.ts";
import { action, loader } from "./logout.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A GET of the page; by default the portal's own link (Sec-Fetch-Site: same-origin). */
async function loadPage(path: string, headers: Record<string, string>) {
  const url = new URL(path, "http://localhost:3000");
  return loader({
    request: new Request(url, { headers: { cookie: "ory_kratos_session=s", ...headers } }),
    params: { lang: "es" },
    context: new RouterContextProvider(),
    url,
    pattern: "/:lang/logout",
  });
}

async function load(path = "/es/logout", context = new RouterContextProvider()) {
  const url = new URL(path, "http://localhost:3000");
  const result = await loader({
    request: new Request(url, {
      headers: { cookie: "ory_kratos_session=s", "sec-fetch-site": "same-origin" },
    }),
    params: { lang: "es" },
    context,
    url,
    pattern: "/:lang/logout",
  });
  if (!(result instanceof Response)) throw new Error("expected a redirect");
  return result;
}

describe("the portal's sign-out (POST from its own page)", () => {
  it("asks for a logout URL returning to this language's login and sends the browser there", async () => {
    const logoutUrl =
      "http://localhost:3000/api/kratos/self-service/logout?token=ory_lo_x&return_to=http%3A%2F%2Flocalhost%3A3000%2Fes%2Flogin";
    const { calls } = stubIdentity({
      "GET /self-service/logout/browser": {
        status: 200,
        body: { logout_url: logoutUrl, logout_token: "ory_lo_x" },
      },
    });

    const response = await signOutPost();

    expect(calls[0]?.url.searchParams.get("return_to")).toBe("http://localhost:3000/es/login");
    expect(calls[0]?.headers.get("cookie")).toBe("ory_kratos_session=s");
    // On the portal's own origin the Location is the path (never protocol-relative).
    expect(response.headers.get("location")).toBe(logoutUrl.slice("http://localhost:3000".length));
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
    // The second-factor screen's note of the account goes with the session.
    expect(response.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^portal_account=; .*Max-Age=0/),
    );
  });

  it("moves a logout URL on the identity service's internal address onto the proxy", async () => {
    stubIdentity({
      "GET /self-service/logout/browser": {
        status: 200,
        body: {
          logout_url: "http://127.0.0.1:4433/self-service/logout?token=t",
          logout_token: "t",
        },
      },
    });
    expect((await signOutPost()).headers.get("location")).toBe(
      "/api/kratos/self-service/logout?token=t",
    );
  });

  it("goes to login when there is no session", async () => {
    stubIdentity({
      "GET /self-service/logout/browser": { status: 401, body: { error: { code: 401 } } },
    });
    expect((await signOutPost()).headers.get("location")).toBe("/es/login");
  });
});

/** GET /admin/oauth2/auth/requests/logout as Hydra answers an RP-initiated logout. */
const logoutRequest = {
  challenge: "lo-ch",
  subject: "5ff66179-c240-4703-b0d8-494592cefff5",
  sid: "ls-1",
  request_url: "http://localhost:4444/oauth2/sessions/logout?id_token_hint=x",
  rp_initiated: true,
  client: {
    client_id: "agency",
    client_name: "Agency portal",
    redirect_uris: ["https://agency.example.gov/callback"],
    post_logout_redirect_uris: ["https://agency.example.gov/signed-out"],
  },
};
const verifierUrl = "http://localhost:4444/oauth2/sessions/logout?logout_verifier=v1";

async function post(
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const url = new URL(path, "http://localhost:3000");
  const result = await action({
    request: new Request(url, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { cookie: "ory_kratos_session=s", ...headers },
    }),
    params: { lang: "es" },
    context: new RouterContextProvider(),
    url,
    pattern: "/:lang/logout",
  });
  if (!(result instanceof Response)) throw new Error("expected a response");
  return result;
}

const logoutFlow = {
  "GET /self-service/logout/browser": {
    status: 200,
    body: { logout_url: "http://127.0.0.1:4433/self-service/logout?token=t", logout_token: "t" },
  },
};
const signedIn = { status: 200, body: { id: "s", identity: { id: "i" } } };

/** The portal's own sign-out form, posted from its page. */
function signOutPost() {
  return post("/es/logout", {}, { "sec-fetch-site": "same-origin" });
}

describe("a GET of the sign-out", () => {
  it.each([
    // A flow's return_to behind the refresh screen's "Cancel" link, set by whoever made the link.
    [
      "the portal's own page's link",
      { "sec-fetch-site": "same-origin", "sec-fetch-dest": "document" },
    ],
    // A client's logo_uri pointing at /logout, shown on the consent page.
    ["a same-origin image", { "sec-fetch-site": "same-origin", "sec-fetch-dest": "image" }],
    ["another site's link", { "sec-fetch-site": "cross-site" }],
    ["a sibling application's link", { "sec-fetch-site": "same-site" }],
    ["a typed address", { "sec-fetch-site": "none" }],
    ["a browser that does not say", {}],
  ])("asks first after %s, creating no logout token", async (_, headers) => {
    const { calls } = stubIdentity({ ...logoutFlow, "GET /sessions/whoami": signedIn });

    const result = await loadPage("/es/logout?login_challenge=ch-1&x=1", headers);

    expect(result).toEqual({
      confirmSignOut: true,
      fields: { login_challenge: "ch-1" },
    });
    expect(calls.map((call) => call.url.pathname)).toEqual(["/sessions/whoami"]);
  });

  it("goes straight on without a session: nothing to sign out of", async () => {
    const { calls } = stubIdentity({
      ...logoutFlow,
      "GET /sessions/whoami": { status: 401, body: { error: { code: 401 } } },
    });

    const result = await loadPage("/es/logout", { "sec-fetch-site": "cross-site" });

    if (!(result instanceof Response)) throw new Error("expected a redirect");
    expect(result.headers.get("location")).toBe("/es/login");
    expect(calls.map((call) => call.url.pathname)).toEqual(["/sessions/whoami"]);
  });
});

describe("the portal's sign-out form (POST) and where it lands", () => {
  it("signs out from the portal's own page, returning where the hidden fields say", async () => {
    const { calls } = stubIdentity(logoutFlow);

    const response = await post(
      "/es/logout",
      { login_challenge: "ch-1" },
      { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" },
    );

    expect(response.headers.get("location")).toBe("/api/kratos/self-service/logout?token=t");
    expect(calls[0]?.url.searchParams.get("return_to")).toBe(
      "http://localhost:3000/es/login?login_challenge=ch-1",
    );
    expect(calls[0]?.headers.get("cookie")).toBe("ory_kratos_session=s");
  });

  it.each([
    ["another site", { "sec-fetch-site": "cross-site" }],
    ["a sibling application", { "sec-fetch-site": "same-site" }],
    ["another origin without Sec-Fetch-Site", { origin: "https://evil.example" }],
  ])("is refused from %s, creating no logout token", async (_, headers) => {
    const { calls } = stubIdentity(logoutFlow);

    const result = await action({
      request: new Request("http://localhost:3000/es/logout", {
        method: "POST",
        body: new URLSearchParams({}),
        headers: { cookie: "ory_kratos_session=s", ...headers },
      }),
      params: { lang: "es" },
      context: new RouterContextProvider(),
      url: new URL("http://localhost:3000/es/logout"),
      pattern: "/:lang/logout",
    });

    expect(result).toMatchObject({ init: { status: 403 } });
    expect(calls).toEqual([]);
  });
});

describe("the logout route with a logout challenge", () => {
  it("asks about the client (no identity-service logout yet) and widens CSP to it", async () => {
    const { calls } = stubIdentity({
      "GET /admin/oauth2/auth/requests/logout": { status: 200, body: logoutRequest },
    });
    const allowOrigins = vi.fn();
    const url = new URL("http://localhost:3000/es/logout?logout_challenge=lo-ch");

    const result = await loader({
      request: new Request(url),
      params: { lang: "es" },
      context: createLoadContext({
        nonce: "n",
        forwardedFor: undefined,
        correlationId: "c",
        allowOrigins,
      }),
      url,
      pattern: "/:lang/logout",
    });

    expect(result).toEqual({ challenge: "lo-ch", client: "Agency portal" });
    expect(calls.map((call) => call.url.href)).toEqual([
      "http://127.0.0.1:4445/admin/oauth2/auth/requests/logout?logout_challenge=lo-ch",
    ]);
    expect(allowOrigins).toHaveBeenCalledWith("form-action", [
      "http://localhost:4444",
      "https://agency.example.gov",
    ]);
  });

  it("asks without a client name when the logout did not come from an application", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/logout": {
        status: 200,
        body: { ...logoutRequest, rp_initiated: false, client: undefined },
      },
    });
    const url = new URL("http://localhost:3000/es/logout?logout_challenge=lo-ch");
    const result = await loader({
      request: new Request(url),
      params: { lang: "es" },
      context: new RouterContextProvider(),
      url,
      pattern: "/:lang/logout",
    });
    expect(result).toEqual({ challenge: "lo-ch", client: undefined });
  });

  it("signs out at once for a client that skips the question", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/logout": {
        status: 200,
        body: { ...logoutRequest, client: { ...logoutRequest.client, skip_logout_consent: true } },
      },
      "PUT /admin/oauth2/auth/requests/logout/accept": {
        status: 200,
        body: { redirect_to: verifierUrl },
      },
    });
    const response = await load("/es/logout?logout_challenge=lo-ch");
    expect([response.status, response.headers.get("location")]).toEqual([303, verifierUrl]);
  });

  it("follows redirect_to of a used challenge and explains an unknown one", async () => {
    stubIdentity({
      "GET /admin/oauth2/auth/requests/logout": (call) =>
        call.url.searchParams.get("logout_challenge") === "used"
          ? { status: 410, body: { redirect_to: "http://localhost:4444/oauth2/sessions/logout" } }
          : { status: 404, body: { error: "not_found" } },
    });
    const used = await load("/es/logout?logout_challenge=used");
    expect(used.headers.get("location")).toBe("http://localhost:4444/oauth2/sessions/logout");
    const unknown = await load("/es/logout?logout_challenge=nope");
    expect(unknown.headers.get("location")).toBe("/es/error?oauth2=expired");
  });

  it("Yes accepts and follows redirect_to", async () => {
    const { calls } = stubIdentity({
      "PUT /admin/oauth2/auth/requests/logout/accept": {
        status: 200,
        body: { redirect_to: verifierUrl },
      },
    });
    const response = await post("/es/logout?logout_challenge=lo-ch", { decision: "yes" });
    expect([response.status, response.headers.get("location")]).toEqual([303, verifierUrl]);
    expect(calls[0]?.url.searchParams.get("logout_challenge")).toBe("lo-ch");
  });

  it("No rejects (204) and goes to the portal's start page", async () => {
    const { calls } = stubIdentity({
      "PUT /admin/oauth2/auth/requests/logout/reject": { status: 204 },
    });
    const response = await post("/es/logout", { logout_challenge: "lo-ch", decision: "no" });
    expect(response.headers.get("location")).toBe("/es");
    expect(calls.map((call) => call.method)).toEqual(["PUT"]);
  });

  it("needs the challenge", async () => {
    stubIdentity({});
    const response = await post("/es/logout", { decision: "yes" });
    expect(response.headers.get("location")).toBe("/es/error?oauth2=expired");
  });
});
