import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import {
  linkTotp,
  passwordSignIn,
  vendoredFlowFile,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

type Credentials = Record<string, Record<string, unknown>>;

async function credentialsOf(identityId: string, include?: string): Promise<Credentials> {
  const query = include ? `?include_credential=${include}` : "";
  const answer = await call(`${ts.adminUrl}/admin/identities/${identityId}${query}`);
  return (answer.body as { credentials: Credentials }).credentials;
}

describe("admin identity JSON with second factors", () => {
  it("shows the totp credential like Kratos' snapshot, its config only on request", async () => {
    const { identityId } = await registerNative(ts, "admin-totp@example.com");
    const { browser } = await passwordSignIn(ts, "admin-totp@example.com");
    const secret = await linkTotp(ts, browser);

    const plain = await credentialsOf(identityId);
    expect(plain.totp).toEqual({
      type: "totp",
      identifiers: [identityId],
      version: 0,
      created_at: ts.now().toISOString(),
      updated_at: ts.now().toISOString(),
    });

    const withConfig = (await credentialsOf(identityId, "totp")).totp;
    const snapshot = vendoredFlowFile<{ credentials: Credentials }>(
      "kratos.snapshot.admin-identity.totp-credentials.json",
    ).credentials.totp;
    expect(Object.keys(withConfig?.config as object)).toEqual(
      Object.keys(snapshot?.config as object),
    );
    const url = new URL((withConfig?.config as { totp_url: string }).totp_url);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(url.searchParams.get("secret")).toBe(secret);
    expect(url.searchParams.get("issuer")).toBe("localhost");
    expect(decodeURIComponent(url.pathname)).toBe("/localhost:admin-totp@example.com");
    // The password's config stays hidden unless asked for, as before.
    expect((await credentialsOf(identityId, "totp")).password).not.toHaveProperty("config");
  });
});
