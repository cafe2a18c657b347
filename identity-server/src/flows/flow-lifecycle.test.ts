import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type CookieJar, type TestResponse } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { passwordSignIn, type Browser } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// The life of every kind of flow as Kratos handles it (kratos-behaviour §0-7, §1.6, §1.9):
// return_to checked at creation and at the end, expiry answered per kind, CSRF, and the answers
// for callers that already have (or lack) a session.

const kinds = ["login", "registration", "recovery", "verification", "settings"] as const;
type Kind = (typeof kinds)[number];

const ui = "http://localhost:3000";
const json = { accept: "application/json" };

let ts: TestServer;
let signedIn: Browser;
let sessionToken: string;
beforeAll(async () => {
  ts = await startTestServer();
  sessionToken = (await registerNative(ts, "lifecycle@example.com")).token;
  signedIn = (await passwordSignIn(ts, "lifecycle@example.com")).browser;
});
afterAll(async () => {
  await ts.stop();
});

/** Settings need a session; the other kinds are started anonymously. */
function jarFor(kind: Kind): CookieJar | undefined {
  return kind === "settings" ? signedIn.jar : undefined;
}

function tokenHeaders(kind: Kind): Record<string, string> {
  return kind === "settings" ? { "x-session-token": sessionToken } : {};
}

async function browserFlow(kind: Kind, jar?: CookieJar): Promise<{ id: string; jar: CookieJar }> {
  const browser = jar ? { jar } : ts.browser();
  const response = await call(`${ts.publicUrl}/self-service/${kind}/browser`, {
    jar: browser.jar,
    headers: json,
  });
  expect(response.status, kind).toBe(200);
  return { id: (response.body as { id: string }).id, jar: browser.jar };
}

async function apiFlow(kind: Kind): Promise<string> {
  const response = await call(`${ts.publicUrl}/self-service/${kind}/api`, {
    headers: tokenHeaders(kind),
  });
  expect(response.status, kind).toBe(200);
  return (response.body as { id: string }).id;
}

function errorId(response: TestResponse): string | undefined {
  return (response.body as { error?: { id?: string } } | undefined)?.error?.id;
}

describe("return_to", () => {
  it("is checked when any flow is created: 400 self_service_flow_return_to_forbidden", async () => {
    const bad = encodeURIComponent("https://evil.example.org/");
    for (const kind of kinds) {
      const browserJson = await call(
        `${ts.publicUrl}/self-service/${kind}/browser?return_to=${bad}`,
        { jar: jarFor(kind), headers: json },
      );
      expect(browserJson.status, kind).toBe(400);
      expect(errorId(browserJson), kind).toBe("self_service_flow_return_to_forbidden");

      const api = await call(`${ts.publicUrl}/self-service/${kind}/api?return_to=${bad}`, {
        headers: tokenHeaders(kind),
      });
      expect(api.status, kind).toBe(400);
      expect(errorId(api), kind).toBe("self_service_flow_return_to_forbidden");

      // A browser gets the error page, except at verification, whose init writes the error as is.
      const html = await call(`${ts.publicUrl}/self-service/${kind}/browser?return_to=${bad}`, {
        jar: jarFor(kind),
      });
      if (kind === "verification") {
        expect(html.status, kind).toBe(400);
        continue;
      }
      expect(html.status, kind).toBe(303);
      expect(html.headers.get("location"), kind).toMatch(new RegExp(`^${ui}/error\\?id=`));
    }
  });

  it("keeps an allowed return_to on the flow, relative ones resolved against the default", async () => {
    for (const kind of kinds) {
      const response = await call(
        `${ts.publicUrl}/self-service/${kind}/browser?return_to=${encodeURIComponent("http://localhost:4000/app")}`,
        { jar: jarFor(kind), headers: json },
      );
      expect(response.status, kind).toBe(200);
      expect((response.body as { return_to?: string }).return_to, kind).toBe(
        "http://localhost:4000/app",
      );
    }
    const relative = await call(`${ts.publicUrl}/self-service/login/browser?return_to=/dashboard`, {
      headers: json,
    });
    expect(relative.status).toBe(200);
  });

  it("is checked again when the flow finishes (the allow-list may have changed)", async () => {
    const dataDir = ts.dataDir;
    const before = await startTestServer(
      { IDENTITY_ALLOWED_RETURN_URLS: "http://localhost:3000/,http://localhost:5000/" },
      `${dataDir}-finish`,
    );
    const browser = before.browser();
    await registerNative(before, "finish@example.com");
    const returnTo = encodeURIComponent("http://localhost:5000/next");
    const created = await call(
      `${before.publicUrl}/self-service/login/browser?return_to=${returnTo}`,
      {
        jar: browser.jar,
        headers: json,
      },
    );
    expect(created.status).toBe(200);
    const flow = created.body as {
      id: string;
      ui: { nodes: { attributes: { name?: string; value?: unknown } }[] };
    };
    const csrf = flow.ui.nodes.find((n) => n.attributes.name === "csrf_token")?.attributes.value;
    await before.stop();

    const after = await startTestServer({}, `${dataDir}-finish`);
    try {
      const submit = await call(`${after.publicUrl}/self-service/login?flow=${flow.id}`, {
        method: "POST",
        jar: browser.jar,
        headers: { ...json, "content-type": "application/json" },
        body: JSON.stringify({
          method: "password",
          identifier: "finish@example.com",
          password: "correct-Horse-battery-2-staple",
          csrf_token: csrf,
        }),
      });
      // Kratos renders the 400 into the flow (4000001 with the reason) and signs nobody in.
      expect(submit.status).toBe(400);
      const messages = (submit.body as { ui: { messages: { id: number; text: string }[] } }).ui
        .messages;
      expect(messages.map((m) => m.id)).toEqual([4000001]);
      expect(messages[0]?.text).toContain(
        'Requested return_to URL "http://localhost:5000/next" is not allowed.',
      );
      expect(browser.jar.get("ory_kratos_session")).toBeUndefined();
    } finally {
      await after.stop();
      rmSync(`${dataDir}-finish`, { recursive: true, force: true });
    }
  });
});

describe("expired flows", () => {
  it("answer a submission as Kratos does per kind: 410 use_flow_id, or 303 to the new flow", async () => {
    const started: { kind: Kind; id: string; jar?: CookieJar; type: string }[] = [];
    for (const kind of kinds) {
      const browser = await browserFlow(kind, jarFor(kind));
      started.push({ kind, id: browser.id, jar: browser.jar, type: "browser" });
      started.push({ kind, id: await apiFlow(kind), type: "api" });
    }
    ts.advanceClock(3_600_000 + 1_000);
    try {
      for (const { kind, id, jar, type } of started) {
        const label = `${kind}/${type}`;
        const response = await call(`${ts.publicUrl}/self-service/${kind}?flow=${id}`, {
          method: "POST",
          jar,
          headers: {
            ...json,
            "content-type": "application/json",
            ...(type === "api" ? tokenHeaders(kind) : {}),
          },
          body: JSON.stringify({ method: kind === "settings" ? "profile" : "password" }),
        });
        if (kind === "recovery" || kind === "verification") {
          expect(response.status, label).toBe(303);
          const location = response.headers.get("location") ?? "";
          expect(location, label).toMatch(
            new RegExp(`^http://localhost:3000/api/kratos/self-service/${kind}/flows\\?id=`),
          );
          expect(new URL(location).searchParams.get("id"), label).not.toBe(id);
          continue;
        }
        expect(response.status, label).toBe(410);
        const body = response.body as { use_flow_id: string; expired_at: string; since: number };
        expect(errorId(response), label).toBe("self_service_flow_expired");
        expect(body.use_flow_id, label).not.toBe(id);
        const replacement = await call(
          `${ts.publicUrl}/self-service/${kind}/flows?id=${body.use_flow_id}`,
          { jar, headers: { ...json, ...(type === "api" ? tokenHeaders(kind) : {}) } },
        );
        expect(replacement.status, label).toBe(200);
        const expiredMessage = { login: 4010001, registration: 4040001, settings: 4050001 }[kind];
        expect(
          (replacement.body as { ui: { messages: { id: number }[] } }).ui.messages.map((m) => m.id),
          label,
        ).toContain(expiredMessage);
      }
    } finally {
      ts.advanceClock(-(3_600_000 + 1_000));
    }
  });

  it("answer a fetch with 410 and where to start again (browser: redirect_to, API: api)", async () => {
    const started: { kind: Kind; id: string; jar?: CookieJar; type: string }[] = [];
    for (const kind of kinds) {
      const browser = await browserFlow(kind, jarFor(kind));
      started.push({ kind, id: browser.id, jar: browser.jar, type: "browser" });
      started.push({ kind, id: await apiFlow(kind), type: "api" });
    }
    ts.advanceClock(3_600_000 + 1_000);
    try {
      for (const { kind, id, jar, type } of started) {
        const label = `${kind}/${type}`;
        const response = await call(`${ts.publicUrl}/self-service/${kind}/flows?id=${id}`, {
          jar,
          headers: { ...json, ...(type === "api" ? tokenHeaders(kind) : {}) },
        });
        expect(response.status, label).toBe(410);
        const details = (response.body as { error: { details: Record<string, string> } }).error
          .details;
        if (type === "browser") {
          expect(details.redirect_to, label).toBe(
            `http://localhost:3000/api/kratos/self-service/${kind}/browser`,
          );
        } else {
          expect(details.api, label).toBe(
            `http://localhost:3000/api/kratos/self-service/${kind}/api`,
          );
        }
      }
    } finally {
      ts.advanceClock(-(3_600_000 + 1_000));
    }
  });
});

describe("CSRF", () => {
  it("refuses valid browser submissions with a wrong anti-CSRF token (403 security_csrf_violation)", async () => {
    // Complete bodies: Kratos validates the payload before it checks the token.
    const bodies: Record<Kind, Record<string, unknown>> = {
      login: { method: "password", identifier: "lifecycle@example.com", password: "x" },
      registration: {
        method: "password",
        password: "correct-Horse-battery-2-staple",
        traits: { email: "csrf-new@example.com" },
      },
      settings: { method: "profile", traits: { email: "lifecycle@example.com" } },
      // Recovery throws the flow away but still answers the CSRF error (strategy_recovery.go
      // retryRecoveryFlow returns the error ParseError does not render).
      recovery: { method: "code", email: "lifecycle@example.com" },
      verification: { method: "code", email: "lifecycle@example.com" },
    };
    for (const kind of kinds) {
      const { id, jar } = await browserFlow(kind, jarFor(kind));
      const response = await call(`${ts.publicUrl}/self-service/${kind}?flow=${id}`, {
        method: "POST",
        jar,
        headers: { ...json, "content-type": "application/json" },
        body: JSON.stringify({ ...bodies[kind], csrf_token: "forged" }),
      });
      expect(response.status, kind).toBe(403);
      expect(errorId(response), kind).toBe("security_csrf_violation");
    }
  });

  it("refuses API flow submissions that look like a browser's (cookie or Origin): 400", async () => {
    for (const kind of ["login", "registration", "recovery", "verification"] as const) {
      const id = await apiFlow(kind);
      const response = await call(`${ts.publicUrl}/self-service/${kind}?flow=${id}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({
          method: kind === "login" || kind === "registration" ? "password" : "code",
          identifier: "lifecycle@example.com",
          password: "correct-Horse-battery-2-staple",
          email: "lifecycle@example.com",
          traits: { email: "new-lifecycle@example.com" },
        }),
      });
      if (kind === "recovery") {
        // Recovery renders the 400 into a fresh flow and sends JSON clients there.
        expect(response.status, kind).toBe(303);
        expect(response.headers.get("location")).toMatch(/\/self-service\/recovery\/flows\?id=/);
        continue;
      }
      expect(response.status, kind).toBe(400);
      expect(JSON.stringify(response.body), kind).toContain('included the \\"Origin\\" key');
    }
  });
});

describe("sessions and flows", () => {
  it("says session_already_available to signed-in callers of login, registration and recovery", async () => {
    for (const kind of ["login", "registration", "recovery"] as const) {
      const browser = await call(`${ts.publicUrl}/self-service/${kind}/browser`, {
        jar: signedIn.jar,
        headers: json,
      });
      expect(browser.status, kind).toBe(400);
      expect(errorId(browser), kind).toBe("session_already_available");
    }
    for (const kind of ["login", "registration"] as const) {
      const api = await call(`${ts.publicUrl}/self-service/${kind}/api`, {
        headers: { "x-session-token": sessionToken },
      });
      expect(api.status, kind).toBe(400);
      expect(errorId(api), kind).toBe("session_already_available");
    }
    // HTML: sent on to the default return URL.
    const html = await call(`${ts.publicUrl}/self-service/login/browser`, { jar: signedIn.jar });
    expect(html.status).toBe(303);
    expect(html.headers.get("location")).toBe("http://localhost:3000/");
  });

  it("says session_inactive (401) where a session is needed and there is none", async () => {
    const settings = await call(`${ts.publicUrl}/self-service/settings/browser`, { headers: json });
    expect(settings.status).toBe(401);
    expect(errorId(settings)).toBe("session_inactive");
    const settingsApi = await call(`${ts.publicUrl}/self-service/settings/api`);
    expect(settingsApi.status).toBe(401);
    expect(errorId(settingsApi)).toBe("session_inactive");
    const logout = await call(`${ts.publicUrl}/self-service/logout/browser`, { headers: json });
    expect(logout.status).toBe(401);
    expect(errorId(logout)).toBe("session_inactive");
    // Kratos' whoami and session list answer 401 without an id.
    expect((await call(`${ts.publicUrl}/sessions/whoami`)).status).toBe(401);
    expect((await call(`${ts.publicUrl}/sessions`)).status).toBe(401);
  });

  it("lets a signed-in browser refresh its login, then says 401 session_aal1_required for aal2 without a session", async () => {
    const refresh = await call(`${ts.publicUrl}/self-service/login/browser?refresh=true`, {
      jar: signedIn.jar,
      headers: json,
    });
    expect(refresh.status).toBe(200);
    expect((refresh.body as { refresh: boolean }).refresh).toBe(true);
    const aal2 = await call(`${ts.publicUrl}/self-service/login/browser?aal=aal2`, {
      headers: json,
    });
    expect(aal2.status).toBe(401);
    expect(errorId(aal2)).toBe("session_aal1_required");
  });
});
