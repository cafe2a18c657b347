import { readFileSync } from "node:fs";
import type { RecoveryFlow, UiNode } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../test-support/http-client.ts";
import { failureOf, registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

const vendored = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../vendor/ory/flows/${name}`, import.meta.url), "utf8"));

let ts: TestServer;
let identityId: string;
beforeAll(async () => {
  ts = await startTestServer();
  ({ identityId } = await registerNative(ts, "locked-out@example.com"));
});
afterAll(async () => {
  await ts.stop();
});

describe("POST /admin/recovery/code", () => {
  it("creates a code (201) for a sent_email flow that needs no CSRF and verifies nothing", async () => {
    const created = await ts.admin().createRecoveryCodeForIdentity({
      createRecoveryCodeForIdentityBody: { identity_id: identityId, expires_in: "15m" },
    });
    expect(created.recovery_code).toMatch(/^\d{6}$/);
    const flowId = new URL(created.recovery_link).searchParams.get("flow") ?? "";
    expect(created.recovery_link).toBe(`http://localhost:3000/recovery?flow=${flowId}`);

    // Any browser can open it: the flow is not tied to an anti-CSRF cookie.
    const { api, jar } = ts.browser();
    const flow = await api.getRecoveryFlow({ id: flowId });
    expect(flow.state).toBe("sent_email");
    expect(created.expires_at?.toISOString()).toBe(flow.expires_at.toISOString());
    const stripped = flow.ui.nodes.map((node: UiNode) => ({ ...node, messages: [] }));
    expect(stripped).toEqual(vendored("kratos.snapshot.recovery.admin-code.flow-nodes.json"));

    const done = await api.updateRecoveryFlow({
      flow: flowId,
      updateRecoveryFlowBody: { method: "code", code: created.recovery_code },
    });
    expect(done.state).toBe("passed_challenge");
    expect(jar.get("ory_kratos_session")).toBeDefined();
    const session = await api.toSession();
    expect(session.identity?.id).toBe(identityId);
    // An operator's code proves no address.
    expect(session.identity?.verifiable_addresses?.[0]?.verified).toBe(false);
  });

  it("refuses a non-positive or unreadable expires_in (400) and an unknown identity (404)", async () => {
    const negative = await call(`${ts.adminUrl}/admin/recovery/code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identity_id: identityId, expires_in: "-1h" }),
    });
    expect(negative.status).toBe(400);
    expect(negative.body).toEqual(
      vendored("kratos.snapshot.error.admin-recovery-code.negative-expiry.json"),
    );

    const unreadable = await failureOf(
      ts.admin().createRecoveryCodeForIdentity({
        createRecoveryCodeForIdentityBody: { identity_id: identityId, expires_in: "soon" },
      }),
    );
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toMatchObject({
      error: {
        reason:
          'Unable to parse "expires_in" as a duration string (e.g. "1h", "1m30s", "500ms"): soon',
      },
    });

    const unknown = await failureOf(
      ts.admin().createRecoveryCodeForIdentity({
        createRecoveryCodeForIdentityBody: { identity_id: "0c2f4d1e-8b7a-4c3d-9e2f-1a0b9c8d7e6f" },
      }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: {
        code: 404,
        status: "Not Found",
        reason: "could not find identity",
        message: "Unable to locate the resource",
      },
    });
  });

  it("lets the code expire with expires_in", async () => {
    const created = await ts.admin().createRecoveryCodeForIdentity({
      createRecoveryCodeForIdentityBody: { identity_id: identityId, expires_in: "5m" },
    });
    const flowId = new URL(created.recovery_link).searchParams.get("flow") ?? "";
    ts.advanceClock(6 * 60_000);
    const late = await call(`${ts.publicUrl}/self-service/recovery?flow=${flowId}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ method: "code", code: created.recovery_code }),
    });
    // The flow expired with the code: a replacement flow is offered, as for any expired flow.
    expect(late.status).toBe(303);
    expect(late.headers.get("location")).toMatch(/\/self-service\/recovery\/flows\?id=/);
  });
});

describe("POST /admin/recovery/link", () => {
  it("creates a link that recovers the account when opened", async () => {
    const created = await ts.admin().createRecoveryLinkForIdentity({
      returnTo: "http://localhost:4000/after",
      createRecoveryLinkForIdentityBody: { identity_id: identityId },
    });
    const link = new URL(created.recovery_link);
    expect(link.origin + link.pathname).toBe(
      "http://localhost:3000/api/kratos/self-service/recovery",
    );
    expect(link.searchParams.get("token")).toMatch(/^[A-Za-z0-9]{32}$/);

    const jar = new CookieJar();
    const opened = await call(`${ts.publicUrl}/self-service/recovery${link.search}`, { jar });
    expect(opened.status).toBe(303);
    const settingsUi = new URL(opened.headers.get("location") ?? "");
    expect(settingsUi.origin + settingsUi.pathname).toBe("http://localhost:3000/settings");
    expect(jar.get("ory_kratos_session")).toBeDefined();
    const settings = await call(
      `${ts.publicUrl}/self-service/settings/flows?id=${settingsUi.searchParams.get("flow") ?? ""}`,
      { jar, headers: { accept: "application/json" } },
    );
    expect(settings.body).toMatchObject({ return_to: "http://localhost:4000/after" });

    // The link works once; afterwards it leads to a fresh flow saying so.
    const otherBrowser = new CookieJar();
    const reused = await call(`${ts.publicUrl}/self-service/recovery${link.search}`, {
      jar: otherBrowser,
    });
    expect(reused.status).toBe(303);
    const retryId = new URL(reused.headers.get("location") ?? "").searchParams.get("flow") ?? "";
    const retry = (
      await call(`${ts.publicUrl}/self-service/recovery/flows?id=${retryId}`, {
        jar: otherBrowser,
      })
    ).body as RecoveryFlow;
    expect(retry.ui.messages?.[0]?.text).toBe(
      "The code was already used. Please request another code.",
    );
  });

  it("refuses a return_to outside the allowed URLs", async () => {
    const refused = await failureOf(
      ts.admin().createRecoveryLinkForIdentity({
        returnTo: "https://evil.example/",
        createRecoveryLinkForIdentityBody: { identity_id: identityId },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { id: "self_service_flow_return_to_forbidden" } });
  });

  it("turns a wrong token into a fresh flow with 4060004", async () => {
    const created = await ts.admin().createRecoveryLinkForIdentity({
      createRecoveryLinkForIdentityBody: { identity_id: identityId },
    });
    const link = new URL(created.recovery_link);
    link.searchParams.set("token", "x".repeat(32));
    const jar = new CookieJar();
    const opened = await call(`${ts.publicUrl}/self-service/recovery${link.search}`, { jar });
    expect(opened.status).toBe(303);
    const flowId = new URL(opened.headers.get("location") ?? "").searchParams.get("flow") ?? "";
    const flow = (await call(`${ts.publicUrl}/self-service/recovery/flows?id=${flowId}`, { jar }))
      .body as RecoveryFlow;
    expect(flow.ui.messages?.map((m) => m.id)).toEqual([4060004]);
    expect(jar.get("ory_kratos_session")).toBeUndefined();
  });
});
