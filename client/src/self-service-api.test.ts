import { describe, expect, it } from "vitest";
import { createIdentityClient, readIdentityAnswer } from "./index.ts";

function recorder(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetchApi: typeof fetch = (input, init) => {
    calls.push({ url: input instanceof Request ? input.url : String(input), init });
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json", "set-cookie": "ory_trusted_device=t" },
      }),
    );
  };
  return { fetchApi, calls };
}

function sentJson(init: RequestInit | undefined): unknown {
  return typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
}

describe("the self-service submissions the SDK cannot make", () => {
  it("sends the login body as given, trust_device included, like the SDK's calls", async () => {
    const { fetchApi, calls } = recorder(200, { session: {}, continue_with: [] });
    const client = createIdentityClient({
      basePath: "http://kratos/",
      headers: { "x-correlation-id": "c-1" },
      fetchApi,
    });

    const answer = await readIdentityAnswer(() =>
      client.selfService.updateLoginFlowRaw({
        flow: "f 1",
        body: { method: "totp", totp_code: "123456", csrf_token: "c", trust_device: true },
      }),
    );

    expect(answer).toMatchObject({ status: 200, setCookies: ["ory_trusted_device=t"] });
    const [call] = calls;
    expect(call?.url).toBe("http://kratos/self-service/login?flow=f%201");
    expect(call?.init?.method).toBe("POST");
    expect(call?.init?.redirect).toBe("manual");
    expect(call?.init?.headers).toMatchObject({
      Accept: "application/json",
      "Content-Type": "application/json",
      "x-correlation-id": "c-1",
    });
    expect(sentJson(call?.init)).toEqual({
      method: "totp",
      totp_code: "123456",
      csrf_token: "c",
      trust_device: true,
    });
  });

  it("sends settings bodies of the identity service's own methods, and reads errors", async () => {
    const { fetchApi, calls } = recorder(400, { id: "s1", ui: { nodes: [] } });
    const client = createIdentityClient({ basePath: "http://kratos", fetchApi });

    const answer = await readIdentityAnswer(() =>
      client.selfService.updateSettingsFlowRaw({
        flow: "s1",
        body: { totp_device_untrust: "device-1", csrf_token: "c" },
      }),
    );

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ id: "s1", ui: { nodes: [] } });
    expect(calls[0]?.url).toBe("http://kratos/self-service/settings?flow=s1");
    expect(sentJson(calls[0]?.init)).toEqual({
      totp_device_untrust: "device-1",
      csrf_token: "c",
    });
  });
});
