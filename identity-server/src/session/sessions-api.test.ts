import type { Session } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type TestResponse } from "../test-support/http-client.ts";
import { registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { linkTotp, passwordSignIn } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

/** Signs in natively; each sign-in is a new session. The clock moves so they sort by age. */
async function nativeSession(email: string): Promise<{ token: string; id: string }> {
  ts.advanceClock(1000);
  const api = ts.native();
  const flow = await api.createNativeLoginFlow();
  const result = await api.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: { method: "password", identifier: email, password: strongPassword },
  });
  return { token: result.session_token ?? "", id: result.session.id };
}

const asUser = (token: string) => ({ headers: { "x-session-token": token } });

async function mySessions(token: string, query = ""): Promise<TestResponse> {
  return call(`${ts.publicUrl}/sessions${query}`, asUser(token));
}

async function alive(token: string): Promise<boolean> {
  return (await call(`${ts.publicUrl}/sessions/whoami`, asUser(token))).status === 200;
}

const ids = (response: TestResponse) => (response.body as Session[]).map((s) => s.id);

describe("the caller's own sessions", () => {
  it("lists the other active sessions, newest first, with Kratos' paging", async () => {
    const me = await registerNative(ts, "many@example.com");
    const b = await nativeSession("many@example.com");
    const c = await nativeSession("many@example.com");
    const d = await nativeSession("many@example.com");

    const all = await mySessions(me.token);
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([d.id, c.id, b.id]);
    expect(all.headers.get("x-total-count")).toBe("3");
    const first = (all.body as Session[])[0];
    expect(first?.identity?.traits).toEqual({ email: "many@example.com" });
    expect(first?.devices).toHaveLength(1);

    const page0 = await mySessions(me.token, "?per_page=2");
    expect(ids(page0)).toEqual([d.id, c.id]);
    const link = page0.headers.get("link") ?? "";
    expect(link).toContain('rel="next"');
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] ?? "";
    expect(next).toMatch(/^\/sessions\?page=1&page_size=2&page_token=[\w-]+&per_page=2$/);
    const page1 = await call(`${ts.publicUrl}${next.replace("page=1&", "")}`, asUser(me.token));
    expect(ids(page1)).toEqual([b.id]);
  });

  it("signs out one other session (204), refuses the current one (400) and garbled ids (400)", async () => {
    const registered = await registerNative(ts, "one@example.com");
    const me = await nativeSession("one@example.com");
    const other = await nativeSession("one@example.com");

    const own = await call(`${ts.publicUrl}/sessions/${me.id}`, {
      method: "DELETE",
      ...asUser(me.token),
    });
    expect(own.status).toBe(400);
    expect(own.body).toEqual({
      error: {
        code: 400,
        status: "Bad Request",
        message: "cannot revoke current session",
      },
    });
    const garbled = await call(`${ts.publicUrl}/sessions/abc`, {
      method: "DELETE",
      ...asUser(me.token),
    });
    expect(garbled.status).toBe(400);

    const removed = await call(`${ts.publicUrl}/sessions/${other.id}`, {
      method: "DELETE",
      ...asUser(me.token),
    });
    expect(removed.status).toBe(204);
    expect(await alive(other.token)).toBe(false);
    expect(await alive(me.token)).toBe(true);
    expect(ids(await mySessions(me.token))).not.toContain(other.id);
    expect(await alive(registered.token)).toBe(true);
  });

  it("leaves another identity's session alone and answers 204, as Kratos does", async () => {
    // Kratos' deleteMySession (session/handler.go) revokes with
    // `UPDATE sessions … WHERE id = ? AND identity_id = <caller>` (persister_session.go
    // RevokeSession) and writes 204 whether or not a row changed: no 404 tells a caller that
    // another identity's session id exists.
    await registerNative(ts, "owner@example.com");
    await registerNative(ts, "stranger@example.com");
    const owner = await nativeSession("owner@example.com");
    const stranger = await nativeSession("stranger@example.com");
    const attempt = await call(`${ts.publicUrl}/sessions/${owner.id}`, {
      method: "DELETE",
      ...asUser(stranger.token),
    });
    expect(attempt.status).toBe(204);
    expect(attempt.text).toBe("");
    expect(await alive(owner.token)).toBe(true);
    const unknown = await call(`${ts.publicUrl}/sessions/${crypto.randomUUID()}`, {
      method: "DELETE",
      ...asUser(stranger.token),
    });
    expect(unknown.status).toBe(204);
  });

  it("signs out all other sessions and counts them as Kratos does", async () => {
    await registerNative(ts, "all@example.com"); // the registration session counts too
    const me = await nativeSession("all@example.com");
    const b = await nativeSession("all@example.com");
    const c = await nativeSession("all@example.com");
    const answer = await call(`${ts.publicUrl}/sessions`, {
      method: "DELETE",
      ...asUser(me.token),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ count: 3 });
    expect(await alive(b.token)).toBe(false);
    expect(await alive(c.token)).toBe(false);
    expect(await alive(me.token)).toBe(true);
  });

  it("answers 401 without a session and 403 before the second factor", async () => {
    const anonymous = await call(`${ts.publicUrl}/sessions`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: { reason: "No valid session cookie found." } });

    await registerNative(ts, "aal-list@example.com");
    const { browser } = await passwordSignIn(ts, "aal-list@example.com");
    await linkTotp(ts, browser);
    const { browser: aal1 } = await passwordSignIn(ts, "aal-list@example.com");
    const refused = await call(`${ts.publicUrl}/sessions`, { jar: aal1.jar });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { id: "session_aal2_required" } });
  });
});

describe("admin sessions", () => {
  it("lists an identity's sessions (all, or by state) with identity and devices", async () => {
    const { identityId } = await registerNative(ts, "admin-list@example.com");
    const a = await nativeSession("admin-list@example.com");
    const b = await nativeSession("admin-list@example.com");
    await call(`${ts.publicUrl}/sessions/${b.id}`, { method: "DELETE", ...asUser(a.token) });

    const url = `${ts.adminUrl}/admin/identities/${identityId}/sessions`;
    const all = await call(url);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(3);
    const [newest] = all.body as Session[];
    expect(newest).toMatchObject({ id: b.id, active: false });
    expect(newest?.identity).toMatchObject({ id: identityId, metadata_admin: null });
    expect(newest?.identity).not.toHaveProperty("credentials");
    expect(newest?.devices).toHaveLength(1);
    expect(ids(await call(`${url}?active=true`))).not.toContain(b.id);
    expect(ids(await call(`${url}?active=false`))).toEqual([b.id]);
    expect((await call(`${url}?active=maybe`)).status).toBe(400);
    expect((await call(`${ts.adminUrl}/admin/identities/nope/sessions`)).status).toBe(400);
  });

  it("pages through all sessions, expands on request, gets, revokes and extends one", async () => {
    await registerNative(ts, "admin-all@example.com");
    const x = await nativeSession("admin-all@example.com");
    const y = await nativeSession("admin-all@example.com");

    const page = await call(`${ts.adminUrl}/admin/sessions?page_size=1`);
    expect(ids(page)).toEqual([y.id]);
    expect((page.body as Session[])[0]).not.toHaveProperty("identity");
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1] ?? "";
    expect(next).toMatch(/^\/admin\/sessions\?page_size=1&page_token=/);
    expect(ids(await call(`${ts.adminUrl}${next}`))).toEqual([x.id]);
    expect((await call(`${ts.adminUrl}/admin/sessions?page_token=bm9wZQ`)).status).toBe(400);
    expect((await call(`${ts.adminUrl}/admin/sessions?expand=everything`)).status).toBe(400);

    const expanded = await call(
      `${ts.adminUrl}/admin/sessions?page_size=1&expand=identity&expand=devices`,
    );
    const [withIdentity] = expanded.body as Session[];
    expect(withIdentity?.identity?.traits).toEqual({ email: "admin-all@example.com" });
    expect(withIdentity?.devices).toHaveLength(1);

    const one = await call(`${ts.adminUrl}/admin/sessions/${x.id}?expand=identity`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: x.id,
      identity: { traits: { email: "admin-all@example.com" } },
    });
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await call(`${ts.adminUrl}/admin/sessions/${unknown}`)).status).toBe(404);

    ts.advanceClock(3_600_000);
    try {
      const extended = await call(`${ts.adminUrl}/admin/sessions/${x.id}/extend`, {
        method: "PATCH",
      });
      expect(extended.status).toBe(200);
      expect((extended.body as Session).expires_at).toBe(
        new Date(ts.now().getTime() + 24 * 3_600_000).toISOString(),
      );
      expect(
        (await call(`${ts.adminUrl}/admin/sessions/${unknown}/extend`, { method: "PATCH" })).status,
      ).toBe(404);
    } finally {
      ts.advanceClock(-3_600_000);
    }

    const revoked = await call(`${ts.adminUrl}/admin/sessions/${x.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(204);
    expect(await alive(x.token)).toBe(false);
    expect(
      (await call(`${ts.adminUrl}/admin/sessions/${unknown}`, { method: "DELETE" })).status,
    ).toBe(404);
  });

  it("deletes every session of an identity, then answers 404", async () => {
    const { identityId, token } = await registerNative(ts, "admin-delete@example.com");
    const url = `${ts.adminUrl}/admin/identities/${identityId}/sessions`;
    expect((await call(url, { method: "DELETE" })).status).toBe(204);
    expect(await alive(token)).toBe(false);
    expect((await call(url)).body).toEqual([]);
    expect((await call(url, { method: "DELETE" })).status).toBe(404);
  });
});
