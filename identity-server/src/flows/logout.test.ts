import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../test-support/http-client.ts";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await registerNative(ts, "logout@example.com");
});
afterAll(async () => {
  await ts.stop();
});

async function signedInBrowser() {
  const browser = ts.browser();
  const flow = await browser.api.createBrowserLoginFlow();
  await browser.api.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: {
      method: "password",
      csrf_token: csrfTokenOf(flow),
      identifier: "logout@example.com",
      password: strongPassword,
    },
  });
  return browser;
}

describe("browser logout", () => {
  it("hands out a logout URL, refuses a wrong token and signs out with the right one (JSON: 204)", async () => {
    const { api, jar } = await signedInBrowser();
    const logout = await api.createBrowserLogoutFlow({ returnTo: "http://localhost:4000/" });
    expect(logout.logout_token).toMatch(/^ory_lo_[A-Za-z0-9]{32}$/);
    const url = new URL(logout.logout_url);
    expect(url.origin + url.pathname).toBe("http://localhost:3000/api/kratos/self-service/logout");
    expect(url.searchParams.get("return_to")).toBe("http://localhost:4000/");

    const wrong = await call(`${ts.publicUrl}/self-service/logout?token=ory_lo_wrong`, {
      jar,
      headers: { accept: "application/json" },
    });
    expect(wrong.status).toBe(403);

    const csrfBefore = jar.find("csrf_token_")?.value;
    await api.updateLogoutFlow({ token: logout.logout_token });
    expect(jar.get("ory_kratos_session")).toBeUndefined();
    expect(jar.find("csrf_token_")?.value).not.toBe(csrfBefore);
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, { jar });
    expect(whoami.status).toBe(401);
  });

  it("redirects a plain browser request (303) to return_to", async () => {
    const { api, jar } = await signedInBrowser();
    const logout = await api.createBrowserLogoutFlow({ returnTo: "http://localhost:4000/bye" });
    const response = await call(
      `${ts.publicUrl}/self-service/logout?token=${logout.logout_token}&return_to=http://localhost:4000/bye`,
      { jar },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:4000/bye");
  });

  it("answers 401 (JSON) when there is no session to log out", async () => {
    const response = await call(`${ts.publicUrl}/self-service/logout/browser`, {
      jar: new CookieJar(),
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: { id: "session_inactive" } });
  });

  it("revokes a native session token with DELETE /self-service/logout/api", async () => {
    const { token } = await registerNative(ts, "native-logout@example.com");
    await ts.native().performNativeLogout({ performNativeLogoutBody: { session_token: token } });
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, {
      headers: { "x-session-token": token },
    });
    expect(whoami.status).toBe(401);
  });
});
