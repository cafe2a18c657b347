import { RequiredError } from "@ory/client-fetch";
import { afterEach, describe, expect, it } from "vitest";
import { browserBasePath, createIdentityClient } from "./index.ts";
import { requiredParameterMessage } from "./required-parameters.ts";

interface Recorded {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
}

function recordingFetch(): { fetchApi: typeof fetch; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const fetchApi: typeof fetch = (input, init = {}) => {
    calls.push({
      url: input instanceof Request ? input.url : String(input),
      init,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
    });
    return Promise.resolve(
      new Response("{}", { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
  return { fetchApi, calls };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request headers", () => {
  it("sends a fresh x-correlation-id on every request unless the request has one", async () => {
    const { fetchApi, calls } = recordingFetch();
    const client = createIdentityClient({ basePath: "http://k", fetchApi });
    await client.frontend.toSessionRaw({});
    await client.frontend.toSessionRaw({});
    await client.frontend.toSessionRaw({}, { headers: { "X-Correlation-Id": "from-the-caller" } });
    expect(calls[0]?.headers["x-correlation-id"]).toMatch(uuid);
    expect(calls[1]?.headers["x-correlation-id"]).toMatch(uuid);
    expect(calls[1]?.headers["x-correlation-id"]).not.toBe(calls[0]?.headers["x-correlation-id"]);
    expect(calls[2]?.headers["x-correlation-id"]).toBe("from-the-caller");

    const forwarded = recordingFetch();
    await createIdentityClient({
      basePath: "http://k",
      fetchApi: forwarded.fetchApi,
      headers: { "x-correlation-id": "request-1" },
    }).identity.listIdentitiesRaw({});
    expect(forwarded.calls[0]?.headers["x-correlation-id"]).toBe("request-1");
  });

  it("sends the fingerprint as x-session-entropy, sync or async, and nothing without one", async () => {
    for (const fingerprint of [() => "fp-1", () => Promise.resolve("fp-1")]) {
      const { fetchApi, calls } = recordingFetch();
      await createIdentityClient({
        basePath: "http://k",
        fetchApi,
        fingerprint,
      }).frontend.toSessionRaw({});
      expect(calls[0]?.headers["x-session-entropy"]).toBe("fp-1");
    }
    const none = recordingFetch();
    await createIdentityClient({
      basePath: "http://k",
      fetchApi: none.fetchApi,
      fingerprint: () => undefined,
    }).frontend.toSessionRaw({});
    expect(none.calls[0]?.headers).not.toHaveProperty("x-session-entropy");
  });

  it("logs a fingerprint that cannot be read and sends the request anyway", async () => {
    const { fetchApi, calls } = recordingFetch();
    const logged: unknown[][] = [];
    const failure = new Error("Failed to generate the finger print of this browser");
    const client = createIdentityClient({
      basePath: "http://k",
      fetchApi,
      fingerprint: () => Promise.reject(failure),
      logger: { warn: (...args: unknown[]) => logged.push(args) },
    });
    await client.frontend.createBrowserLoginFlowRaw({});
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers).not.toHaveProperty("x-session-entropy");
    expect(logged).toHaveLength(1);
    expect(logged[0]?.[1]).toBe(failure);
  });

  it("includes credentials, asks for JSON and never follows redirects", async () => {
    const { fetchApi, calls } = recordingFetch();
    await createIdentityClient({ basePath: "http://k/", fetchApi }).frontend.getLoginFlowRaw({
      id: "f",
    });
    expect(calls[0]?.url).toBe("http://k/self-service/login/flows?id=f");
    expect(calls[0]?.init.credentials).toBe("include");
    expect(calls[0]?.init.redirect).toBe("manual");
    expect(calls[0]?.headers.accept).toBe("application/json");
  });
});

describe("base paths and admin credentials", () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>).window;
    delete (globalThis as Record<string, unknown>).document;
  });

  it("uses /api/kratos in a browser and needs the public URL elsewhere", async () => {
    expect(() => createIdentityClient()).toThrow("basePath");
    Object.assign(globalThis, { window: {}, document: {} });
    const { fetchApi, calls } = recordingFetch();
    await createIdentityClient({ fetchApi }).frontend.toSessionRaw({});
    expect(browserBasePath).toBe("/api/kratos");
    expect(calls[0]?.url).toBe("/api/kratos/sessions/whoami");
  });

  it("sends the admin token on admin calls only, to the admin and OAuth2 base paths", async () => {
    const { fetchApi, calls } = recordingFetch();
    const client = createIdentityClient({
      basePath: "http://public",
      adminBasePath: "http://admin/",
      oauth2BasePath: "http://oauth2-admin",
      adminToken: "secret-admin-token",
      controlPlaneUrl: "https://control.example.org/",
      fetchApi,
    });
    await client.frontend.toSessionRaw({});
    await client.identity.listIdentitiesRaw({});
    await client.oauth2.listOAuth2ClientsRaw({});
    expect(calls.map((c) => c.url)).toEqual([
      "http://public/sessions/whoami",
      "http://admin/admin/identities",
      "http://oauth2-admin/admin/clients",
    ]);
    expect(calls[0]?.headers).not.toHaveProperty("authorization");
    expect(calls[1]?.headers.authorization).toBe("Bearer secret-admin-token");
    expect(calls[2]?.headers.authorization).toBe("Bearer secret-admin-token");
    expect(client.controlPlaneUrl).toBe("https://control.example.org");
  });

  it("authenticates OAuth2 token and revoke calls with client credentials or a bearer token", async () => {
    const basic = recordingFetch();
    await createIdentityClient({
      basePath: "http://hydra",
      adminToken: "not-for-the-token-endpoint",
      oauth2Credentials: { clientId: "portal", clientSecret: "s3cret" },
      fetchApi: basic.fetchApi,
    }).oauth2.revokeOAuth2TokenRaw({ token: "t" });
    expect(basic.calls[0]?.headers.authorization).toBe(`Basic ${btoa("portal:s3cret")}`);

    const bearer = recordingFetch();
    await createIdentityClient({
      basePath: "http://hydra",
      oauth2Credentials: { accessToken: "access-1" },
      fetchApi: bearer.fetchApi,
    }).oauth2.oauth2TokenExchangeRaw({ grantType: "client_credentials" });
    expect(bearer.calls[0]?.headers.authorization).toBe("Bearer access-1");

    const none = recordingFetch();
    await createIdentityClient({
      basePath: "http://hydra",
      fetchApi: none.fetchApi,
    }).oauth2.revokeOAuth2TokenRaw({ token: "t" });
    expect(none.calls[0]?.headers).not.toHaveProperty("authorization");
  });
});

describe("required parameters (spec §8)", () => {
  const { fetchApi, calls } = recordingFetch();
  const client = createIdentityClient({ basePath: "http://k", fetchApi });
  const { frontend, identity, oauth2 } = client;
  // Each call leaves out one required parameter; the SDK must refuse it before any request.
  const cases: [() => Promise<unknown>, string, string][] = [
    [() => frontend.getLoginFlow({} as never), "id", "getLoginFlow"],
    [() => frontend.getRegistrationFlow({} as never), "id", "getRegistrationFlow"],
    [() => frontend.getRecoveryFlow({} as never), "id", "getRecoveryFlow"],
    [() => frontend.getSettingsFlow({} as never), "id", "getSettingsFlow"],
    [() => frontend.getVerificationFlow({} as never), "id", "getVerificationFlow"],
    [() => frontend.getFlowError({} as never), "id", "getFlowError"],
    [() => frontend.disableMySession({} as never), "id", "disableMySession"],
    [
      () => frontend.updateLoginFlow({ updateLoginFlowBody: {} } as never),
      "flow",
      "updateLoginFlow",
    ],
    [
      () => frontend.updateLoginFlow({ flow: "f" } as never),
      "updateLoginFlowBody",
      "updateLoginFlow",
    ],
    [
      () => frontend.updateRegistrationFlowRaw({ flow: "f" } as never),
      "updateRegistrationFlowBody",
      "updateRegistrationFlow",
    ],
    [
      () => frontend.updateRecoveryFlow({ updateRecoveryFlowBody: {} } as never),
      "flow",
      "updateRecoveryFlow",
    ],
    [
      () => frontend.updateSettingsFlow({ flow: "f" } as never),
      "updateSettingsFlowBody",
      "updateSettingsFlow",
    ],
    [
      () => frontend.updateVerificationFlow({ updateVerificationFlowBody: {} } as never),
      "flow",
      "updateVerificationFlow",
    ],
    [
      () => frontend.performNativeLogout({} as never),
      "performNativeLogoutBody",
      "performNativeLogout",
    ],
    [
      () => frontend.exchangeSessionToken({ returnToCode: "r" } as never),
      "initCode",
      "exchangeSessionToken",
    ],
    [
      () => frontend.exchangeSessionToken({ initCode: "i" } as never),
      "returnToCode",
      "exchangeSessionToken",
    ],
    [() => identity.getIdentity({} as never), "id", "getIdentity"],
    [() => identity.deleteIdentity({} as never), "id", "deleteIdentity"],
    [() => identity.getSession({} as never), "id", "getSession"],
    [() => identity.disableSession({} as never), "id", "disableSession"],
    [() => identity.extendSession({} as never), "id", "extendSession"],
    [
      () => identity.deleteIdentityCredentials({ id: "i" } as never),
      "type",
      "deleteIdentityCredentials",
    ],
    [() => oauth2.introspectOAuth2Token({} as never), "token", "introspectOAuth2Token"],
    [() => oauth2.revokeOAuth2Token({} as never), "token", "revokeOAuth2Token"],
    [() => oauth2.oauth2TokenExchange({} as never), "grantType", "oauth2TokenExchange"],
    [() => oauth2.listOAuth2ConsentSessions({} as never), "subject", "listOAuth2ConsentSessions"],
    [() => oauth2.getOAuth2LoginRequest({} as never), "loginChallenge", "getOAuth2LoginRequest"],
    [
      () => oauth2.acceptOAuth2LoginRequest({} as never),
      "loginChallenge",
      "acceptOAuth2LoginRequest",
    ],
    [
      () => oauth2.rejectOAuth2LoginRequest({} as never),
      "loginChallenge",
      "rejectOAuth2LoginRequest",
    ],
    [
      () => oauth2.getOAuth2ConsentRequest({} as never),
      "consentChallenge",
      "getOAuth2ConsentRequest",
    ],
    [
      () => oauth2.acceptOAuth2ConsentRequest({} as never),
      "consentChallenge",
      "acceptOAuth2ConsentRequest",
    ],
    [() => oauth2.getOAuth2LogoutRequest({} as never), "logoutChallenge", "getOAuth2LogoutRequest"],
    [() => oauth2.getOAuth2Client({} as never), "id", "getOAuth2Client"],
    [() => oauth2.deleteOAuth2Client({} as never), "id", "deleteOAuth2Client"],
  ];

  for (const [invoke, field, operation] of cases) {
    it(`${operation} without ${field}`, async () => {
      const error: unknown = await invoke().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequiredError);
      expect((error as RequiredError).field).toBe(field);
      expect((error as Error).message).toBe(
        `Required parameter ${field} was null or undefined when calling ${operation}.`,
      );
      expect(calls).toHaveLength(0);
    });
  }

  it("words the message exactly as spec §8", () => {
    expect(requiredParameterMessage("id", "getIdentity")).toBe(
      "Required parameter id was null or undefined when calling getIdentity.",
    );
  });

  it("leaves other errors and results untouched", async () => {
    const failing = createIdentityClient({
      basePath: "http://k",
      fetchApi: () => Promise.reject(new TypeError("fetch failed")),
    });
    await expect(failing.frontend.toSession({})).rejects.not.toBeInstanceOf(RequiredError);
    const ok = recordingFetch();
    const session = await createIdentityClient({
      basePath: "http://k",
      fetchApi: ok.fetchApi,
    }).frontend.getLoginFlowRaw({ id: "x" });
    expect(session.raw.status).toBe(200);
  });
});
