import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { registerNative, strongPassword } from "../../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// What a password login does per request (issue 19: the main thread's CPU beyond the hash). The
// server runs in this process, so JSON.parse sees the server's parsing as well as the client's.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await registerNative(ts, "work@example.com");
});
afterAll(async () => {
  await ts.stop();
});

describe("a successful password login", () => {
  it("does not parse the stored flow's form (it saves the active method and answers the session)", async () => {
    const api = ts.native();
    const flow = await api.createNativeLoginFlow();
    const parse = vi.spyOn(JSON, "parse");
    try {
      const result = await api.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: "password",
          identifier: "work@example.com",
          password: strongPassword,
        },
      });
      expect(result.session_token).toBeTruthy();
      const formsParsed = parse.mock.calls.filter(
        ([text]) => typeof text === "string" && text.startsWith('{"action":'),
      );
      expect(formsParsed).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    // The flow still reads back whole, with the method it was completed by.
    const stored = await api.getLoginFlow({ id: flow.id });
    expect(stored.ui).toEqual(flow.ui);
    expect(stored.active).toBe("password");
  });
});
