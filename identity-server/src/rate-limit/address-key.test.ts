import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { messageIds } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { codeSendAddressKey } from "./address-key.ts";

describe("codeSendAddressKey", () => {
  it("gives every spelling of one mailbox the same key", () => {
    for (const spelling of [
      "owner1@example.org",
      "Owner1@EXAMPLE.org.",
      "owner1+x@example.org",
      "owner1+a+b@example.org..",
      " ＯＷＮＥＲ１@ｅｘａｍｐｌｅ.org ",
    ]) {
      expect(codeSendAddressKey(spelling), spelling).toBe("owner1@example.org");
    }
    expect(codeSendAddressKey("owner@bücher.example")).toBe("owner@xn--bcher-kva.example");
    expect(codeSendAddressKey("owner2@example.org")).not.toBe("owner1@example.org");
    expect(codeSendAddressKey("+49 151 1234-5678")).toBe("+4915112345678");
  });
});

// Second attack round on issue 12: address variants each had a budget of five codes of their own.
describe("codes per address, whatever the spelling", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({}, undefined, { freezeClock: true });
    await ts.admin().createIdentity({
      createIdentityBody: { schema_id: "default", traits: { email: "owner1@example.org" } },
    });
  });
  afterAll(async () => {
    await ts.stop();
  });

  async function askForRecoveryCode(address: string, ip: string) {
    const flow = await ts.native().createNativeRecoveryFlow();
    return call(`${ts.publicUrl}/self-service/recovery?flow=${flow.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-forwarded-for": ip,
      },
      body: JSON.stringify({ method: "code", email: address }),
    });
  }

  it("counts a trailing dot and plus-addressing against the address's one budget", async () => {
    for (let i = 0; i < 5; i++) {
      const sent = await askForRecoveryCode("owner1@example.org", `198.51.100.${i + 1}`);
      expect(messageIds(sent.body as never, "")).toEqual([1060003]);
    }
    for (const variant of ["owner1@EXAMPLE.org.", "owner1+x@example.org"]) {
      const answer = await askForRecoveryCode(variant, "203.0.113.7");
      expect(answer.status, variant).toBe(400);
      expect(messageIds(answer.body as never, ""), variant).toEqual([9010008]);
    }
    expect(await ts.messagesTo("owner1@example.org")).toHaveLength(5);
  });
});
