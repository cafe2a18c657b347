// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../test/identity-stub.ts";
import { loader } from "./logout.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

function load() {
  const url = new URL("http://localhost:3000/es/logout");
  return loader({
    request: new Request(url, { headers: { cookie: "ory_kratos_session=s" } }),
    params: { lang: "es" },
    context: new RouterContextProvider(),
    url,
    pattern: "/:lang/logout",
  });
}

describe("the logout route", () => {
  it("asks for a logout URL returning to this language's login and sends the browser there", async () => {
    const logoutUrl =
      "http://localhost:3000/api/kratos/self-service/logout?token=ory_lo_x&return_to=http%3A%2F%2Flocalhost%3A3000%2Fes%2Flogin";
    const { calls } = stubIdentity({
      "GET /self-service/logout/browser": {
        status: 200,
        body: { logout_url: logoutUrl, logout_token: "ory_lo_x" },
      },
    });

    const response = await load();

    expect(calls[0]?.url.searchParams.get("return_to")).toBe("http://localhost:3000/es/login");
    expect(calls[0]?.headers.get("cookie")).toBe("ory_kratos_session=s");
    expect(response.headers.get("location")).toBe(logoutUrl);
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
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
    expect((await load()).headers.get("location")).toBe(
      "http://localhost:3000/api/kratos/self-service/logout?token=t",
    );
  });

  it("goes to login when there is no session", async () => {
    stubIdentity({
      "GET /self-service/logout/browser": { status: 401, body: { error: { code: 401 } } },
    });
    expect((await load()).headers.get("location")).toBe("/es/login");
  });
});
