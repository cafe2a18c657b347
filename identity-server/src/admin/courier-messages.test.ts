import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { failureOf, registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  // Messages stay queued unless a test dispatches them, so statuses are predictable.
  ts = await startTestServer({}, undefined, { courierAutoDispatch: false });
  for (const email of ["one@example.com", "two@example.com", "three@example.com"]) {
    await registerNative(ts, email);
  }
});
afterAll(async () => {
  await ts.stop();
});

describe("admin courier messages", () => {
  it("lists messages newest first in Kratos' message shape", async () => {
    const messages = await ts.courierAdmin().listCourierMessages({});
    expect(messages.map((m) => m.recipient)).toEqual([
      "three@example.com",
      "two@example.com",
      "one@example.com",
    ]);
    const raw = await call(`${ts.adminUrl}/admin/courier/messages?page_size=1`);
    expect(Object.keys((raw.body as Record<string, unknown>[])[0] ?? {})).toEqual([
      "id",
      "status",
      "type",
      "recipient",
      "body",
      "subject",
      "template_type",
      "channel",
      "send_count",
      "created_at",
      "updated_at",
    ]);
    expect((raw.body as Record<string, unknown>[])[0]).toMatchObject({
      status: "queued",
      type: "email",
      channel: "email",
      template_type: "verification_code_valid",
      subject: "Confirm your email address",
      send_count: 0,
    });
  });

  it("pages with page_size and the Link header's page_token", async () => {
    const first = await call(`${ts.adminUrl}/admin/courier/messages?page_size=2`);
    expect((first.body as { recipient: string }[]).map((m) => m.recipient)).toEqual([
      "three@example.com",
      "two@example.com",
    ]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1] ?? "";
    expect(next).toMatch(/^\/admin\/courier\/messages\?page_size=2&page_token=/);
    const second = await call(`${ts.adminUrl}${next}`);
    expect((second.body as { recipient: string }[]).map((m) => m.recipient)).toEqual([
      "one@example.com",
    ]);
    expect(second.headers.get("link")).not.toContain('rel="next"');
  });

  it("filters by recipient and status, and refuses an unknown status", async () => {
    const admin = ts.courierAdmin();
    expect(
      (await admin.listCourierMessages({ recipient: "two@example.com" })).map((m) => m.recipient),
    ).toEqual(["two@example.com"]);
    expect(await admin.listCourierMessages({ status: "sent" })).toEqual([]);
    await ts.courier.dispatchDue();
    expect(await admin.listCourierMessages({ status: "sent" })).toHaveLength(3);
    const bad = await call(`${ts.adminUrl}/admin/courier/messages?status=lost`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { reason: "Message status is not valid" } });
  });

  it("returns one message with its dispatches, 404 for an unknown id", async () => {
    await ts.courier.dispatchDue();
    const [listed] = await ts.courierAdmin().listCourierMessages({ recipient: "one@example.com" });
    const message = await ts.courierAdmin().getCourierMessage({ id: listed?.id ?? "" });
    expect(message.status).toBe("sent");
    expect(message.dispatches).toEqual([
      expect.objectContaining({ message_id: message.id, status: "success" }),
    ]);
    const missing = await failureOf(
      ts.courierAdmin().getCourierMessage({ id: "6f3c2b1a-0d9e-4f8a-b7c6-5d4e3f2a1b0c" }),
    );
    expect(missing.status).toBe(404);
  });
});
