import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { mailboxPage } from "./mailbox-page.ts";
import type { CourierMessage } from "./message.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await registerNative(ts, "first@example.com");
  await registerNative(ts, "second@example.com");
  const api = ts.native();
  const registration = await api.createNativeRegistrationFlow();
  await api.updateRegistrationFlow({
    flow: registration.id,
    updateRegistrationFlowBody: {
      method: "password",
      password: "correct-Horse-battery-2-staple",
      traits: { email: "third@example.com", phone: "+14155550199" },
    },
  });
  const verification = await api.createNativeVerificationFlow();
  await api.updateVerificationFlow({
    flow: verification.id,
    updateVerificationFlowBody: { method: "code", email: "+1 415 555 0199" },
  });
});
afterAll(async () => {
  await ts.stop();
});

describe("mailbox", () => {
  it("lists every e-mail and text message, newest first, with the code visible", async () => {
    const response = await fetch(`${ts.mailboxUrl}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    const recipients = [...html.matchAll(/<dt>To<\/dt><dd>([^<]+)<\/dd>/g)].map((m) => m[1]);
    expect(recipients).toEqual([
      "+14155550199",
      "third@example.com",
      "second@example.com",
      "first@example.com",
    ]);
    const [sms] = await ts.messagesTo("+14155550199");
    expect(html).toContain(`<strong class="code">${sms?.code ?? "-"}</strong>`);
    expect(html).toContain("<dt>Channel</dt><dd>SMS</dd>");
    expect(html).toContain('<h2 id="message-1">Confirm your email address</h2>');
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toContain('<label for="to">Recipient</label>');
    expect(html).not.toContain("<script");
  });

  it("serves the same list as JSON, filtered by recipient (normalised like addresses)", async () => {
    const all = (await (await fetch(`${ts.mailboxUrl}/messages.json`)).json()) as {
      recipient: string;
    }[];
    expect(all.map((m) => m.recipient)).toEqual([
      "+14155550199",
      "third@example.com",
      "second@example.com",
      "first@example.com",
    ]);
    const [message, ...others] = await ts.messagesTo("SECOND@example.com");
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      channel: "email",
      recipient: "second@example.com",
      template_type: "verification_code_valid",
    });
    expect(message?.code).toMatch(/^\d{6}$/);
    expect(await ts.messagesTo("+1 (415) 555-0199")).toHaveLength(1);
  });

  it("escapes everything it shows", () => {
    const now = new Date("2026-01-02T03:04:05Z");
    const message: CourierMessage = {
      id: "0b8f3a52-2c61-4d0e-9a57-38f0c1d2e3f4",
      channel: "email",
      status: "queued",
      recipient: '"><script>alert(1)</script>@example.com',
      subject: "<b>Hi</b> & bye",
      body: "</pre><img src=x onerror=alert(1)>",
      templateType: "recovery_code_valid",
      templateData: { code: "<i>1</i>" },
      locale: "en",
      sendCount: 0,
      nextAttemptAt: now,
      lastError: undefined,
      createdAt: now,
      updatedAt: now,
    };
    const html = mailboxPage([message], '"><x>');
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>Hi</b>");
    expect(html).not.toContain("<i>1</i>");
    expect(html).toContain("&lt;b&gt;Hi&lt;/b&gt; &amp; bye");
    expect(html).toContain('value="&quot;&gt;&lt;x&gt;"');
  });
});
