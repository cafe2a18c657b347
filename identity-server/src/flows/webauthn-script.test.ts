import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

describe("GET /.well-known/ory/webauthn.js", () => {
  it("serves a script that only defines Kratos' functions, each reporting WebAuthn as unavailable", async () => {
    const response = await ts.native().getWebAuthnJavaScriptRaw();
    expect(response.raw.status).toBe(200);
    expect(response.raw.headers.get("content-type")).toBe("text/javascript; charset=UTF-8");
    const script = await response.value();

    const warnings: string[] = [];
    const window: Record<string, unknown> = {};
    runInNewContext(script, {
      window,
      console: { warn: (message: string) => warnings.push(message) },
    });
    const names = [
      "oryWebAuthnLogin",
      "oryWebAuthnRegistration",
      "oryPasskeySettingsRegistration",
      "oryPasskeyLogin",
      "oryPasskeyRegistration",
      "oryPasskeyLoginAutocompleteInit",
    ];
    for (const name of names) {
      expect(typeof window[name]).toBe("function");
      (window[name] as () => void)();
    }
    expect(warnings).toHaveLength(names.length);
    expect(warnings[0]).toBe(
      "oryWebAuthnLogin: WebAuthn and passkeys are not available on this server.",
    );
    expect(window.__oryWebAuthnInitialized).toBe(true);
    // Loading it twice changes nothing.
    const before = window.oryWebAuthnLogin;
    runInNewContext(script, { window, console });
    expect(window.oryWebAuthnLogin).toBe(before);
  });
});
