import {
  createIdentityClient,
  readIdentityAnswer,
  type IdentityAnswer,
  type IdentityClient,
} from "@portal/client";
import type { ApiResponse, Session } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenOf, strongPassword } from "../test-support/flow-helpers.ts";
import { CookieJar, specCheckedFetch } from "../test-support/http-client.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { OperationRecorder } from "./operation-recorder.ts";
import { coveredOperations, skippedOperations } from "./spec-operations.ts";

// Spec §7's generic-client calls, made through the typed client (@portal/client) against the
// embedded server started in-process (startIdentityServer on port 0, via startTestServer). Every
// answer goes through specCheckedFetch, which fails the call when its JSON body is not what the
// vendored Kratos OpenAPI spec promises for that operation and status. The admin API runs with
// IDENTITY_ADMIN_TOKEN, so the client's bearer token is exercised on every admin call.

const adminToken = "contract-suite-admin-token-0123";
const recorder = new OperationRecorder();

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({
    IDENTITY_ADMIN_TOKEN: adminToken,
    IDENTITY_SESSION_TOKENIZER_TEMPLATES: JSON.stringify({ api: { ttl: "5m" } }),
  });
});

afterAll(async () => {
  await ts.stop();
  const reached = coveredOperations.filter((op) => recorder.seen.has(op));
  const lines = [
    `contract suite: ${reached.length} of ${coveredOperations.length} §7 operations covered through @portal/client`,
    ...coveredOperations.map((op) => {
      const statuses = [...(recorder.seen.get(op) ?? [])].sort().join(", ");
      return `  ${recorder.seen.has(op) ? "✓" : "✗"} ${op}${statuses ? ` (${statuses})` : ""}`;
    }),
    `skipped (${skippedOperations.length}):`,
    ...skippedOperations.map((s) => `  - ${s.call}: ${s.reason}`),
  ];
  console.log(lines.join("\n"));
});

/** A client acting as one browser (its own cookie jar) or as a native app / admin (no jar). */
function client(jar?: CookieJar): IdentityClient {
  return createIdentityClient({
    basePath: ts.publicUrl,
    adminBasePath: ts.adminUrl,
    adminToken,
    fetchApi: recorder.wrap(specCheckedFetch(jar)),
    logger: { warn: () => undefined },
  });
}

function answer<T>(call: () => Promise<ApiResponse<T>>): Promise<IdentityAnswer> {
  return readIdentityAnswer(call);
}

function bodyOf<T>(result: IdentityAnswer): T {
  return result.body as T;
}

const email = "contract@example.com";
const state: {
  identityId: string;
  browserJar: CookieJar;
  nativeToken: string;
  nativeSessionId: string;
} = { identityId: "", browserJar: new CookieJar(), nativeToken: "", nativeSessionId: "" };

describe("§7 admin identities (through the client)", () => {
  it("creates, reads, lists, replaces and patches identities; lists and serves schemas", async () => {
    const admin = client().identity;
    const created = await admin.createIdentity({
      createIdentityBody: {
        schema_id: "default",
        traits: { email: "contract-admin@example.com" },
        credentials: { password: { config: { password: strongPassword } } },
      },
    });
    expect(created.state).toBe("active");

    const listed = await admin.listIdentities({
      credentialsIdentifier: "contract-admin@example.com",
      includeCredential: ["password"],
    });
    expect(listed.map((i) => i.id)).toEqual([created.id]);
    expect((await admin.listIdentities({ ids: [created.id], pageSize: 10 })).length).toBe(1);
    expect(
      (await admin.listIdentities({ previewCredentialsIdentifierSimilar: "contract-adm" })).length,
    ).toBe(1);
    expect((await admin.listIdentities({ page: 0, perPage: 5 })).length).toBeGreaterThan(0);

    const fetched = await admin.getIdentity({ id: created.id, includeCredential: ["password"] });
    expect(fetched.credentials?.password?.config).toHaveProperty("hashed_password");

    const replaced = await admin.updateIdentity({
      id: created.id,
      updateIdentityBody: {
        schema_id: "default",
        state: "active",
        traits: { email: "contract-admin@example.com", phone: "+4915100000001" },
        metadata_public: { user_profile: { linked: ["agency-a"], default: "agency-a" } },
      },
    });
    expect(replaced.traits).toMatchObject({ phone: "+4915100000001" });

    const patched = await admin.patchIdentity({
      id: created.id,
      jsonPatch: [
        { op: "replace", path: "/metadata_admin", value: { note: "contract" } },
        { op: "remove", path: "/traits/phone" },
      ],
    });
    expect(patched.metadata_admin).toEqual({ note: "contract" });

    const batch = await admin.batchPatchIdentities({
      patchIdentitiesBody: {
        identities: [
          { create: { schema_id: "default", traits: { email: "contract-batch@example.com" } } },
        ],
      },
    });
    expect(batch.identities?.[0]?.action).toBe("create");

    const conflict = await answer(() =>
      admin.createIdentityRaw({
        createIdentityBody: {
          schema_id: "default",
          traits: { email: "contract-batch@example.com" },
        },
      }),
    );
    expect(conflict.status).toBe(409);

    const schemas = client().identity;
    const publicSchemas = createIdentityClient({
      basePath: ts.publicUrl,
      adminBasePath: ts.publicUrl,
      fetchApi: recorder.wrap(specCheckedFetch()),
    }).identity;
    expect((await publicSchemas.listIdentitySchemas({})).map((s) => s.id)).toEqual(["default"]);
    expect(await publicSchemas.getIdentitySchema({ id: "default" })).toMatchObject({
      title: "Person",
    });
    expect((await answer(() => publicSchemas.getIdentitySchemaRaw({ id: "nope" }))).status).toBe(
      404,
    );
    // Without the admin token the admin API refuses the client.
    const anonymous = createIdentityClient({
      basePath: ts.publicUrl,
      adminBasePath: ts.adminUrl,
      fetchApi: recorder.wrap(specCheckedFetch()),
    }).identity;
    expect((await answer(() => anonymous.listIdentitiesRaw({}))).status).toBe(401);
    expect((await answer(() => schemas.getIdentityRaw({ id: "unknown" }))).status).toBe(404);
  });
});

describe("§7 browser self-service flows (through the client)", () => {
  it("registers: create (return_to, after_verification_return_to), fetch, submit", async () => {
    const frontend = client(state.browserJar).frontend;
    const flow = await frontend.createBrowserRegistrationFlow({
      returnTo: "http://localhost:3000/welcome",
      afterVerificationReturnTo: "http://localhost:3000/verified",
    });
    const again = await frontend.getRegistrationFlow({ id: flow.id });
    expect(again.id).toBe(flow.id);
    const invalid = await answer(() =>
      frontend.updateRegistrationFlowRaw({
        flow: flow.id,
        updateRegistrationFlowBody: {
          method: "password",
          password: "short",
          traits: { email },
          csrf_token: csrfTokenOf(again),
        },
      }),
    );
    expect(invalid.status).toBe(400);
    const done = await frontend.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "password",
        password: strongPassword,
        traits: { email },
        csrf_token: csrfTokenOf(again),
      },
    });
    state.identityId = done.identity.id;
    expect(done.continue_with?.map((c) => c.action)).toEqual([
      "redirect_browser_to",
      "show_verification_ui",
    ]);
  });

  it("checks the session, also as a JWT (tokenize_as)", async () => {
    const frontend = client(state.browserJar).frontend;
    const session: Session = await frontend.toSession({});
    expect(session.identity?.id).toBe(state.identityId);
    const tokenized = await frontend.toSession({ tokenizeAs: "api" });
    expect(tokenized.tokenized?.split(".")).toHaveLength(3);
    const unknown = await answer(() => frontend.toSessionRaw({ tokenizeAs: "nope" }));
    expect(unknown.status).toBe(400);
    const anonymous = await answer(() => client().frontend.toSessionRaw({}));
    expect(anonymous.status).toBe(401);
  });

  it("verifies the address: create, fetch, send the code, use it; resend to a phone (sms)", async () => {
    const frontend = client(state.browserJar).frontend;
    const flow = await frontend.createBrowserVerificationFlow({
      returnTo: "http://localhost:3000/",
    });
    await frontend.getVerificationFlow({ id: flow.id });
    const sent = await frontend.updateVerificationFlow({
      flow: flow.id,
      updateVerificationFlowBody: { method: "code", email, csrf_token: csrfTokenOf(flow) },
    });
    expect(sent.state).toBe("sent_email");
    const wrong = await frontend.updateVerificationFlow({
      flow: flow.id,
      updateVerificationFlowBody: { method: "code", code: "000000", csrf_token: csrfTokenOf(sent) },
    });
    expect(wrong.ui.messages?.map((m) => m.id)).toEqual([4070006]);
    const code = await ts.latestCode(email);
    const passed = await frontend.updateVerificationFlow({
      flow: flow.id,
      updateVerificationFlowBody: { method: "code", code, csrf_token: csrfTokenOf(sent) },
    });
    expect(passed.state).toBe("passed_challenge");

    // The resend button of a phone address posts `sms` (the client's selfService part sends it).
    const other = await frontend.createBrowserVerificationFlow({});
    const resent = await answer(() =>
      client(state.browserJar).selfService.updateVerificationFlowRaw({
        flow: other.id,
        body: { method: "code", sms: "+4915100000009", csrf_token: csrfTokenOf(other) },
      }),
    );
    expect(resent.status).toBe(200);
    expect(bodyOf<{ state: string }>(resent).state).toBe("sent_email");
  });

  it("changes settings: create (return_to), fetch, submit the profile", async () => {
    const frontend = client(state.browserJar).frontend;
    const flow = await frontend.createBrowserSettingsFlow({ returnTo: "http://localhost:3000/" });
    await frontend.getSettingsFlow({ id: flow.id });
    const saved = await frontend.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: "profile",
        traits: { email, phone: "+4915100000002" },
        csrf_token: csrfTokenOf(flow),
      },
    });
    expect(saved.state).toBe("success");
    const noSession = await answer(() => client().frontend.createBrowserSettingsFlowRaw({}));
    expect(noSession.status).toBe(401);
  });

  it("logs out: create the logout URL, then use its token", async () => {
    const frontend = client(state.browserJar).frontend;
    const logout = await frontend.createBrowserLogoutFlow({ returnTo: "http://localhost:3000/" });
    expect(logout.logout_token).toMatch(/^ory_lo_/);
    const wrong = await answer(() => frontend.updateLogoutFlowRaw({ token: "ory_lo_wrong" }));
    expect(wrong.status).toBe(403);
    const done = await answer(() => frontend.updateLogoutFlowRaw({ token: logout.logout_token }));
    expect(done.status).toBe(204);
    expect((await answer(() => frontend.toSessionRaw({}))).status).toBe(401);
  });

  it("logs in: create (return_to, refresh, aal, via, organization), fetch, submit", async () => {
    const frontend = client(state.browserJar).frontend;
    const aal2 = await answer(() => frontend.createBrowserLoginFlowRaw({ aal: "aal2" }));
    expect(aal2.status).toBe(401);
    const flow = await frontend.createBrowserLoginFlow({
      returnTo: "http://localhost:3000/home",
      refresh: false,
      via: "email",
      organization: "",
    });
    expect((await frontend.getLoginFlow({ id: flow.id })).return_to).toBe(
      "http://localhost:3000/home",
    );
    const wrong = await answer(() =>
      frontend.updateLoginFlowRaw({
        flow: flow.id,
        updateLoginFlowBody: {
          method: "password",
          identifier: email,
          password: "not-the-password-1",
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(wrong.status).toBe(400);
    const done = await frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: email,
        password: strongPassword,
        csrf_token: csrfTokenOf(flow),
      },
    });
    expect(done.continue_with).toEqual([
      { action: "redirect_browser_to", redirect_browser_to: "http://localhost:3000/home" },
    ]);
    const refresh = await frontend.createBrowserLoginFlow({ refresh: true });
    expect(refresh.refresh).toBe(true);
    const already = await answer(() => frontend.createBrowserLoginFlowRaw({}));
    expect(already.status).toBe(400);
  });

  it("recovers an account: create (return_to), fetch, send the code, use it", async () => {
    const jar = new CookieJar();
    const frontend = client(jar).frontend;
    const flow = await frontend.createBrowserRecoveryFlow({ returnTo: "http://localhost:3000/" });
    await frontend.getRecoveryFlow({ id: flow.id });
    const sent = await frontend.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: "code", email, csrf_token: csrfTokenOf(flow) },
    });
    expect(sent.state).toBe("sent_email");
    const code = await ts.latestCode(email);
    const recovered = await frontend.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: "code", code, csrf_token: csrfTokenOf(sent) },
    });
    expect(recovered.continue_with?.[0]?.action).toBe("show_settings_ui");
  });

  it("reads a stored error (and the canned one), 404 for an unknown id", async () => {
    const frontend = client().frontend;
    const stub = await frontend.getFlowError({ id: "stub:500" });
    expect(stub.error).toMatchObject({ code: 500 });
    const unknown = await answer(() =>
      frontend.getFlowErrorRaw({ id: "3f1c4b9e-0000-4000-8000-000000000000" }),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("§7 native flows and sessions (through the client)", () => {
  it("runs every flow kind as a native app and exchanges nothing without a session", async () => {
    const frontend = client().frontend;
    const login = await frontend.createNativeLoginFlow({ returnSessionTokenExchangeCode: true });
    expect(login.session_token_exchange_code).toBeDefined();
    const signedIn = await frontend.updateLoginFlow({
      flow: login.id,
      updateLoginFlowBody: { method: "password", identifier: email, password: strongPassword },
    });
    state.nativeToken = signedIn.session_token ?? "";
    state.nativeSessionId = signedIn.session.id;

    const exchange = await answer(() =>
      frontend.exchangeSessionTokenRaw({
        initCode: login.session_token_exchange_code ?? "",
        returnToCode: "not-the-return-to-code",
      }),
    );
    expect(exchange.status).toBe(404);

    const registration = await frontend.createNativeRegistrationFlow({});
    const registered = await frontend.updateRegistrationFlow({
      flow: registration.id,
      updateRegistrationFlowBody: {
        method: "password",
        password: strongPassword,
        traits: { email: "contract-native@example.com" },
      },
    });
    expect(registered.session_token).toMatch(/^ory_st_/);

    const logout = await frontend.performNativeLogoutRaw({
      performNativeLogoutBody: { session_token: registered.session_token ?? "" },
    });
    expect(logout.raw.status).toBe(204);
    const unknownToken = await answer(() =>
      frontend.performNativeLogoutRaw({ performNativeLogoutBody: { session_token: "ory_st_x" } }),
    );
    expect(unknownToken.status).toBe(403);

    const recovery = await frontend.createNativeRecoveryFlow();
    expect(recovery.type).toBe("api");
    const verification = await frontend.createNativeVerificationFlow({});
    expect(verification.type).toBe("api");
    const settings = await frontend.createNativeSettingsFlow({ xSessionToken: state.nativeToken });
    const saved = await frontend.updateSettingsFlow({
      flow: settings.id,
      xSessionToken: state.nativeToken,
      updateSettingsFlowBody: { method: "profile", traits: { email } },
    });
    expect(saved.state).toBe("success");
  });

  it("lists and revokes the caller's other sessions", async () => {
    const frontend = client().frontend;
    const second = await frontend.createNativeLoginFlow({});
    const other = await frontend.updateLoginFlow({
      flow: second.id,
      updateLoginFlowBody: { method: "password", identifier: email, password: strongPassword },
    });
    const mine = await frontend.listMySessions({ xSessionToken: state.nativeToken, perPage: 10 });
    expect(mine.map((s) => s.id)).toContain(other.session.id);
    expect(
      (await frontend.listMySessions({ xSessionToken: state.nativeToken, pageSize: 1 })).length,
    ).toBe(1);
    await frontend.disableMySession({ id: other.session.id, xSessionToken: state.nativeToken });
    const current = await answer(() =>
      frontend.disableMySessionRaw({ id: state.nativeSessionId, xSessionToken: state.nativeToken }),
    );
    expect(current.status).toBe(400);
    const revoked = await frontend.disableMyOtherSessions({ xSessionToken: state.nativeToken });
    expect(revoked.count).toBeGreaterThan(0);
  });

  it("serves the WebAuthn script", async () => {
    const script = await client().frontend.getWebAuthnJavaScript();
    expect(script).toContain("oryWebAuthnLogin");
  });
});

describe("§7 admin sessions and recovery (through the client)", () => {
  it("lists, reads, extends and revokes sessions; lists and deletes an identity's sessions", async () => {
    const admin = client().identity;
    const all = await admin.listSessions({ pageSize: 50, expand: ["identity", "devices"] });
    expect(all.map((s) => s.id)).toContain(state.nativeSessionId);
    const one = await admin.getSession({ id: state.nativeSessionId, expand: ["identity"] });
    expect(one.identity?.id).toBe(state.identityId);
    const extended = await admin.extendSession({ id: state.nativeSessionId });
    expect(extended?.id).toBe(state.nativeSessionId);
    const ofIdentity = await admin.listIdentitySessions({ id: state.identityId, active: true });
    expect(ofIdentity.length).toBeGreaterThan(0);
    await admin.disableSession({ id: state.nativeSessionId });
    expect((await answer(() => admin.getSessionRaw({ id: "garbled" }))).status).toBe(400);
    await admin.deleteIdentitySessions({ id: state.identityId });
    expect(
      (await answer(() => admin.deleteIdentitySessionsRaw({ id: state.identityId }))).status,
    ).toBe(404);
  });

  it("creates recovery codes and links for an identity", async () => {
    const admin = client().identity;
    const code = await admin.createRecoveryCodeForIdentity({
      createRecoveryCodeForIdentityBody: { identity_id: state.identityId, expires_in: "15m" },
    });
    expect(code.recovery_code).toMatch(/^\d{6}$/);
    const link = await admin.createRecoveryLinkForIdentity({
      returnTo: "http://localhost:3000/",
      createRecoveryLinkForIdentityBody: { identity_id: state.identityId },
    });
    expect(link.recovery_link).toContain("/self-service/recovery?flow=");
  });

  it("deletes a credential and then the identity", async () => {
    const admin = client().identity;
    await admin.patchIdentity({
      id: state.identityId,
      jsonPatch: [
        {
          op: "add",
          path: "/credentials/lookup_secret",
          value: { type: "lookup_secret", identifiers: [], config: { recovery_codes: [] } },
        },
      ],
    });
    await admin.deleteIdentityCredentials({ id: state.identityId, type: "lookup_secret" });
    const last = await answer(() =>
      admin.deleteIdentityCredentialsRaw({ id: state.identityId, type: "password" }),
    );
    expect(last.status).toBe(400);
    await admin.deleteIdentity({ id: state.identityId });
    expect((await answer(() => admin.getIdentityRaw({ id: state.identityId }))).status).toBe(404);
  });

  it("reached every §7 operation of the three groups", () => {
    const missing = coveredOperations.filter((op) => !recorder.seen.has(op));
    expect(missing).toEqual([]);
  });
});
