import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import type { CourierMessage } from "./message.ts";
import type { Transport } from "./transports/transport.ts";

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.stop();
  ts = undefined;
});

/** A transport that fails the first `failures` attempts, then delivers; it records every attempt. */
function flakyTransport(failures: number): Transport & { attempts: CourierMessage[] } {
  const attempts: CourierMessage[] = [];
  return {
    name: "flaky",
    attempts,
    send(message) {
      attempts.push(message);
      if (attempts.length <= failures) {
        return Promise.reject(new Error(`connection refused (attempt ${attempts.length})`));
      }
      return Promise.resolve();
    },
  };
}

async function onlyMessage(server: TestServer) {
  const [message, ...rest] = await server.courierAdmin().listCourierMessages({});
  expect(rest).toEqual([]);
  if (!message) throw new Error("no message was queued");
  return server.courierAdmin().getCourierMessage({ id: message.id });
}

describe("courier", () => {
  it("retries a failing delivery with exponential back-off and gives up as 'abandoned'", async () => {
    const transport = flakyTransport(Infinity);
    ts = await startTestServer(
      { IDENTITY_COURIER_MAX_ATTEMPTS: "3", IDENTITY_COURIER_RETRY_BACKOFF: "1s" },
      undefined,
      { transports: { email: transport }, courierAutoDispatch: false, freezeClock: true },
    );
    await registerNative(ts, "bounce@example.com");
    const courier = ts.courier;

    expect(await courier.dispatchDue()).toBe(1);
    let message = await onlyMessage(ts);
    expect(message).toMatchObject({ status: "queued", send_count: 1 });

    // Not due again before one second, then two seconds after the second failure.
    expect(await courier.dispatchDue()).toBe(0);
    ts.advanceClock(999);
    expect(await courier.dispatchDue()).toBe(0);
    ts.advanceClock(1);
    expect(await courier.dispatchDue()).toBe(1);
    ts.advanceClock(1999);
    expect(await courier.dispatchDue()).toBe(0);
    ts.advanceClock(1);
    expect(await courier.dispatchDue()).toBe(1);

    message = await onlyMessage(ts);
    expect(message).toMatchObject({ status: "abandoned", send_count: 3 });
    expect(
      message.dispatches?.map((d) => [d.status, (d.error as { message: string }).message]),
    ).toEqual([
      ["failed", "connection refused (attempt 3)"],
      ["failed", "connection refused (attempt 2)"],
      ["failed", "connection refused (attempt 1)"],
    ]);
    ts.advanceClock(3_600_000);
    expect(await courier.dispatchDue()).toBe(0);
    expect(transport.attempts).toHaveLength(3);
    // The mailbox shows the failure too.
    const [inMailbox] = await ts.messagesTo("bounce@example.com");
    expect(inMailbox).toMatchObject({
      status: "abandoned",
      send_count: 3,
      last_error: "connection refused (attempt 3)",
    });
  });

  it("delivers on a later attempt and records the success", async () => {
    const transport = flakyTransport(1);
    ts = await startTestServer({}, undefined, {
      transports: { email: transport },
      courierAutoDispatch: false,
    });
    await registerNative(ts, "second-try@example.com");
    await ts.courier.dispatchDue();
    ts.advanceClock(1000);
    await ts.courier.dispatchDue();
    const message = await onlyMessage(ts);
    expect(message).toMatchObject({ status: "sent", send_count: 2 });
    expect(message.dispatches?.map((d) => d.status)).toEqual(["success", "failed"]);
  });

  it("keeps queued messages across a restart and sends them when dispatching starts", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "identity-server-courier-"));
    try {
      const first = await startTestServer({}, dataDir, { courierAutoDispatch: false });
      await registerNative(first, "durable-mail@example.com");
      await first.stop();
      ts = await startTestServer({}, dataDir, { courierAutoDispatch: false });
      expect((await onlyMessage(ts)).status).toBe("queued");
      expect(await ts.courier.dispatchDue()).toBe(1);
      expect((await onlyMessage(ts)).status).toBe("sent");
    } finally {
      await ts?.stop();
      ts = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("sends e-mail through SMTP when SMTP_URL is set", async () => {
    const received: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    smtp.listen(0, "127.0.0.1");
    await once(smtp.server, "listening");
    const { port } = smtp.server.address() as AddressInfo;
    try {
      ts = await startTestServer({
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        SMTP_FROM_ADDRESS: "accounts@agency.example",
      });
      expect(ts.mailboxUrl).toBe("");
      const sent = once(ts.courier, "sent");
      await registerNative(ts, "smtp@example.com");
      const [message] = (await sent) as [CourierMessage];
      expect(received).toHaveLength(1);
      expect(received[0]?.to).toEqual(["smtp@example.com"]);
      expect(received[0]?.raw).toContain("From: accounts@agency.example");
      expect(received[0]?.raw).toContain("Subject: Confirm your email address");
      expect(received[0]?.raw).toContain(String(message.templateData.code));
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it("sends text messages to the SMS webhook as JSON {to, body}", async () => {
    const calls: { headers: IncomingMessage["headers"]; body: unknown }[] = [];
    const webhook = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        calls.push({
          headers: request.headers,
          body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
        });
        response.writeHead(calls.length === 1 ? 502 : 202).end();
      });
    });
    webhook.listen(0, "127.0.0.1");
    await once(webhook, "listening");
    const { port } = webhook.address() as AddressInfo;
    try {
      ts = await startTestServer({ SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/sms` }, undefined, {
        courierAutoDispatch: false,
      });
      const api = ts.native();
      const registration = await api.createNativeRegistrationFlow();
      const registered = await api.updateRegistrationFlow({
        flow: registration.id,
        updateRegistrationFlowBody: {
          method: "password",
          password: "correct-Horse-battery-2-staple",
          traits: { email: "sms-owner@example.com", phone: "+14155550123" },
        },
      });
      const verification = await api.createNativeVerificationFlow();
      await api.updateVerificationFlow({
        flow: verification.id,
        updateVerificationFlowBody: { method: "code", email: "+14155550123" },
      });
      expect(registered.identity.id).toBeDefined();
      await ts.courier.dispatchDue();
      ts.advanceClock(1000);
      await ts.courier.dispatchDue();

      const [sms] = await ts.courierAdmin().listCourierMessages({ recipient: "+14155550123" });
      expect(sms).toMatchObject({ type: "sms", channel: "sms", status: "sent", send_count: 2 });
      expect(calls).toHaveLength(2);
      expect(calls[1]?.headers["content-type"]).toBe("application/json");
      expect(calls[1]?.body).toEqual({ to: "+14155550123", body: sms?.body });
      const failed = (await ts.courierAdmin().getCourierMessage({ id: sms?.id ?? "" }))
        .dispatches?.[1];
      expect((failed?.error as { message: string }).message).toBe(
        "The SMS webhook answered 502 Bad Gateway",
      );
    } finally {
      await new Promise<void>((resolve) => webhook.close(() => resolve()));
    }
  });
});
