import { describe, expect, it } from "vitest";
import { createIdentityClient, readIdentityAnswer, readIdentityResponse } from "./index.ts";

interface Recorded {
  url: string;
  init: RequestInit | undefined;
}

function recordingFetch(respond: () => Response): { fetchApi: typeof fetch; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const fetchApi: typeof fetch = (input, init) => {
    calls.push({ url: input instanceof Request ? input.url : String(input), init });
    return Promise.resolve(respond());
  };
  return { fetchApi, calls };
}

function jsonResponse(status: number, body: unknown, setCookies: string[] = []): Response {
  const headers = new Headers({ "content-type": "application/json" });
  for (const cookie of setCookies) headers.append("set-cookie", cookie);
  return new Response(JSON.stringify(body), { status, headers });
}

describe("createIdentityClient", () => {
  it("sends Accept: application/json, the caller's headers and never follows redirects", async () => {
    const { fetchApi, calls } = recordingFetch(() =>
      jsonResponse(200, { id: "s1", identity: null }),
    );
    const client = createIdentityClient({
      basePath: "http://127.0.0.1:4433/",
      headers: { "User-Agent": "test-agent", "x-correlation-id": "c-1" },
      fetchApi,
    });

    await client.frontend.toSessionRaw({ cookie: "ory_kratos_session=abc" });

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe("http://127.0.0.1:4433/sessions/whoami");
    expect(call?.init?.redirect).toBe("manual");
    expect(call?.init?.headers).toMatchObject({
      Accept: "application/json",
      "User-Agent": "test-agent",
      "x-correlation-id": "c-1",
      Cookie: "ory_kratos_session=abc",
    });
  });

  it("passes the browser-flow query parameters through", async () => {
    const { fetchApi, calls } = recordingFetch(() => jsonResponse(200, { id: "f1", ui: {} }));
    const client = createIdentityClient({ basePath: "http://kratos", fetchApi });

    await client.frontend.createBrowserLoginFlowRaw({
      refresh: true,
      aal: "aal2",
      returnTo: "http://localhost:3000/",
    });

    const url = new URL(calls[0]?.url ?? "");
    expect(url.pathname).toBe("/self-service/login/browser");
    expect(url.searchParams.get("refresh")).toBe("true");
    expect(url.searchParams.get("aal")).toBe("aal2");
    expect(url.searchParams.get("return_to")).toBe("http://localhost:3000/");
  });
});

describe("readIdentityResponse", () => {
  it("returns the parsed value, the status and every Set-Cookie on success", async () => {
    const { fetchApi } = recordingFetch(() =>
      jsonResponse(
        200,
        { id: "f1", type: "browser", ui: { action: "a", method: "POST", nodes: [] } },
        ["csrf_token_1=x; Path=/; HttpOnly", "other=y; Path=/"],
      ),
    );
    const client = createIdentityClient({ basePath: "http://kratos", fetchApi });

    const result = await readIdentityResponse(() =>
      client.frontend.createBrowserRegistrationFlowRaw({}),
    );

    expect(result.ok).toBe(true);
    expect(result.status).toBe(200);
    expect(result.setCookies).toEqual(["csrf_token_1=x; Path=/; HttpOnly", "other=y; Path=/"]);
    if (result.ok) expect(result.data.id).toBe("f1");
  });

  it("turns an error status into a result with the JSON body instead of throwing", async () => {
    const body = { error: { id: "self_service_flow_expired", code: 410 }, use_flow_id: "new-id" };
    const { fetchApi } = recordingFetch(() => jsonResponse(410, body, ["a=b"]));
    const client = createIdentityClient({ basePath: "http://kratos", fetchApi });

    const result = await readIdentityResponse(() =>
      client.frontend.getLoginFlowRaw({ id: "old-id" }),
    );

    expect(result).toEqual({ ok: false, status: 410, body, setCookies: ["a=b"] });
  });

  it("keeps a non-JSON error body as text and an empty one as null", async () => {
    const text = recordingFetch(() => new Response("bad gateway", { status: 502 }));
    const empty = recordingFetch(() => new Response(null, { status: 303 }));

    const textResult = await readIdentityResponse(() =>
      createIdentityClient({ basePath: "http://k", fetchApi: text.fetchApi }).frontend.toSessionRaw(
        {},
      ),
    );
    const emptyResult = await readIdentityResponse(() =>
      createIdentityClient({
        basePath: "http://k",
        fetchApi: empty.fetchApi,
      }).frontend.toSessionRaw({}),
    );

    expect(textResult).toMatchObject({ ok: false, status: 502, body: "bad gateway" });
    expect(emptyResult).toMatchObject({ ok: false, status: 303, body: null });
  });

  it("rethrows failures that are not answers, such as a refused connection", async () => {
    const fetchApi: typeof fetch = () => Promise.reject(new TypeError("fetch failed"));
    const client = createIdentityClient({ basePath: "http://k", fetchApi });

    await expect(readIdentityResponse(() => client.frontend.toSessionRaw({}))).rejects.toThrow();
  });
});

describe("readIdentityAnswer", () => {
  it("gives the raw JSON body for success and error statuses alike", async () => {
    const flow = { id: "f1", expires_at: "2030-01-01T00:00:00Z", ui: { nodes: [] } };
    const ok = recordingFetch(() => jsonResponse(200, flow, ["csrf=1"]));
    const invalid = recordingFetch(() => jsonResponse(400, flow));

    const okAnswer = await readIdentityAnswer(() =>
      createIdentityClient({
        basePath: "http://k",
        fetchApi: ok.fetchApi,
      }).frontend.getLoginFlowRaw({ id: "f1" }),
    );
    const invalidAnswer = await readIdentityAnswer(() =>
      createIdentityClient({
        basePath: "http://k",
        fetchApi: invalid.fetchApi,
      }).frontend.getLoginFlowRaw({ id: "f1" }),
    );

    // Not the SDK's model: dates stay strings, exactly as the identity service sent them.
    expect(okAnswer).toEqual({ status: 200, body: flow, setCookies: ["csrf=1"] });
    expect(invalidAnswer).toEqual({ status: 400, body: flow, setCookies: [] });
  });

  it("keeps the Location of a redirect, which names the flow that replaces the submitted one", async () => {
    const location = "http://127.0.0.1:4433/self-service/recovery/flows?id=new-flow";
    const { fetchApi, calls } = recordingFetch(
      () => new Response(null, { status: 303, headers: { location, "set-cookie": "c=1" } }),
    );
    const client = createIdentityClient({ basePath: "http://127.0.0.1:4433", fetchApi });
    const answer = await readIdentityAnswer(() =>
      client.frontend.updateRecoveryFlowRaw({
        flow: "old-flow",
        updateRecoveryFlowBody: { method: "code", code: "123456" },
      }),
    );
    expect(calls[0]?.init?.redirect).toBe("manual");
    expect(answer).toEqual({ status: 303, body: null, setCookies: ["c=1"], location });
  });
});
