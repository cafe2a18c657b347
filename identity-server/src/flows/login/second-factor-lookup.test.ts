import type { LoginFlow, Session, SettingsFlow, UiNode } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  failureOf,
  messageIds,
  nodeShape,
  registerNative,
} from "../../test-support/flow-helpers.ts";
import {
  nodesOfGroups,
  passwordSignIn,
  stableNodes,
  submitLogin,
  vendoredFlowFile,
  whoami,
  type Browser,
} from "../../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

interface TextContext {
  secrets: { id: number; text: string; context: Record<string, unknown> }[];
}

function codesNode(flow: SettingsFlow): { text: string; context: TextContext } {
  const node = flow.ui.nodes.find(
    (n) => (n.attributes as { id?: string }).id === "lookup_secret_codes",
  );
  if (!node) throw new Error("no lookup_secret_codes node");
  return (node.attributes as unknown as { text: { text: string; context: TextContext } }).text;
}

async function lookupSubmit(
  browser: Browser,
  flow: SettingsFlow,
  action: "reveal" | "regenerate" | "confirm" | "disable",
): Promise<SettingsFlow> {
  return browser.api.updateSettingsFlow({
    flow: flow.id,
    updateSettingsFlowBody: {
      method: "lookup_secret",
      [`lookup_secret_${action}`]: true,
      csrf_token: csrfTokenOf(flow),
    },
  });
}

/** Generates and confirms backup codes; returns the browser (now aal2) and the codes. */
async function withCodes(email: string): Promise<{ browser: Browser; codes: string[] }> {
  await registerNative(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  const flow = await browser.api.createBrowserSettingsFlow();
  const generated = await lookupSubmit(browser, flow, "regenerate");
  const codes = codesNode(generated).context.secrets.map((s) => String(s.context.secret));
  await lookupSubmit(browser, generated, "confirm");
  return { browser, codes };
}

async function adminCredential(identityId: string): Promise<Record<string, unknown> | undefined> {
  const answer = await call(
    `${ts.adminUrl}/admin/identities/${identityId}?include_credential=lookup_secret`,
  );
  const credentials = (answer.body as { credentials: Record<string, Record<string, unknown>> })
    .credentials;
  return credentials.lookup_secret;
}

describe("backup codes in settings", () => {
  it("generates 12 codes to confirm, saves nothing before the confirmation, then stores them hashed", async () => {
    const { identityId } = await registerNative(ts, "codes@example.com");
    const { browser } = await passwordSignIn(ts, "codes@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    expect(stableNodes(nodesOfGroups(flow, ["default", "lookup_secret"]))).toEqual(
      stableNodes(
        vendoredFlowFile<UiNode[]>("kratos.snapshot.settings.lookup.no-codes-yet.nodes.json"),
      ),
    );

    const generated = await lookupSubmit(browser, flow, "regenerate");
    expect(generated.state).toBe("show_form");
    expect(generated.ui.messages).toBeUndefined();
    const elements = vendoredFlowFile<SettingsFlow>(
      "elements.settings.lookup-secret.generated.json",
    );
    expect(stableNodes(nodesOfGroups(generated, ["lookup_secret"]))).toEqual(
      stableNodes(nodesOfGroups(elements, ["lookup_secret"])),
    );
    const list = codesNode(generated);
    const codes = list.context.secrets.map((s) => String(s.context.secret));
    expect(codes).toHaveLength(12);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{8}$/);
    expect(new Set(codes).size).toBe(12);
    expect(list.text).toBe(codes.join(", "));
    expect(list.context.secrets.every((s) => s.id === 1050009 && s.text === s.context.secret)).toBe(
      true,
    );
    expect(await adminCredential(identityId)).toBeUndefined();

    const confirmed = await lookupSubmit(browser, generated, "confirm");
    expect(confirmed.state).toBe("success");
    expect(messageIds(confirmed, "")).toEqual([1050001]);
    expect(stableNodes(nodesOfGroups(confirmed, ["default", "lookup_secret"]))).toEqual(
      stableNodes(
        vendoredFlowFile<UiNode[]>("kratos.snapshot.settings.lookup.reveal-and-disable.nodes.json"),
      ),
    );
    const session = (await whoami(ts, browser)).body as Session;
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["password", "aal1"],
      ["lookup_secret", "aal2"],
    ]);

    const stored = await adminCredential(identityId);
    const recoveryCodes = (stored?.config as { recovery_codes: { code: string; used_at: null }[] })
      .recovery_codes;
    expect(recoveryCodes).toHaveLength(12);
    for (const entry of recoveryCodes) {
      expect(Object.keys(entry).sort()).toEqual(["code", "used_at"]);
      expect(entry.code).toMatch(/^[0-9a-f]{64}$/);
      expect(codes).not.toContain(entry.code);
      expect(entry.used_at).toBeNull();
    }
    expect(stored).toMatchObject({ type: "lookup_secret", identifiers: [identityId], version: 0 });
  });

  it("reveals the list masked (only hashes are kept), marks used codes, and answers 200", async () => {
    const { browser, codes } = await withCodes("reveal@example.com");
    // Use one code at sign-in so the list has a used entry.
    const { browser: second } = await passwordSignIn(ts, "reveal@example.com");
    const login = await second.api.createBrowserLoginFlow({ aal: "aal2" });
    expect(
      (await submitLogin(ts, second, login, { method: "lookup_secret", lookup_secret: codes[3] }))
        .status,
    ).toBe(200);

    const flow = await browser.api.createBrowserSettingsFlow();
    const revealed = await lookupSubmit(browser, flow, "reveal");
    expect(revealed.state).toBe("show_form");
    expect(nodeShape({ ui: { nodes: nodesOfGroups(revealed, ["lookup_secret"]) } })).toEqual(
      nodeShape({
        ui: {
          nodes: vendoredFlowFile<UiNode[]>(
            "kratos.snapshot.settings.lookup.regenerated-unconfirmed.nodes.json",
          ).filter((n) => n.group === "lookup_secret"),
        },
      }),
    );
    const list = codesNode(revealed);
    const usedAt = ts.now();
    expect(list.text.split(", ")).toEqual(codes.map((_, i) => (i === 3 ? "used" : "********")));
    expect(list.context.secrets[3]).toEqual({
      id: 1050014,
      text: `Secret was used at ${usedAt.toISOString().slice(0, 19).replace("T", " ")} +0000 UTC`,
      type: "info",
      context: {
        used_at: usedAt.toISOString().replace(".000Z", "Z"),
        used_at_unix: Math.floor(usedAt.getTime() / 1000),
      },
    });

    // An HTML form post goes back to the settings UI instead.
    const form = await call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
      method: "POST",
      jar: browser.jar,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        lookup_secret_reveal: "true",
        csrf_token: csrfTokenOf(revealed),
      }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`http://localhost:3000/settings?flow=${flow.id}`);
  });

  it("refuses to confirm codes that were never generated, and needs a privileged session", async () => {
    const { browser } = await withCodes("confirm-first@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const refused = await failureOf(lookupSubmit(browser, flow, "confirm"));
    expect(refused.status).toBe(400);
    expect((refused.body as SettingsFlow).ui.messages).toEqual([
      {
        id: 4000001,
        text: "You must (re-)generate recovery backup codes before you can save them.",
        type: "error",
        context: {
          reason: "You must (re-)generate recovery backup codes before you can save them.",
        },
      },
    ]);

    ts.advanceClock(61 * 60_000);
    try {
      const stale = await browser.api.createBrowserSettingsFlow();
      for (const action of ["regenerate", "reveal", "disable"] as const) {
        const answer = await failureOf(lookupSubmit(browser, stale, action));
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({ error: { id: "session_refresh_required" } });
      }
    } finally {
      ts.advanceClock(-61 * 60_000);
    }
  });

  it("disables the method: the credential is gone and generating is offered again", async () => {
    const { browser } = await withCodes("disable@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const done = await lookupSubmit(browser, flow, "disable");
    expect(done.state).toBe("success");
    expect(nodeShape({ ui: { nodes: nodesOfGroups(done, ["lookup_secret"]) } })).toEqual([
      "input/lookup_secret/lookup_secret_regenerate/submit/1050008",
    ]);
    expect((await passwordSignIn(ts, "disable@example.com")).answer.status).toBe(200);
  });
});

describe("backup codes at sign-in", () => {
  it("offers the code input, refuses unknown codes (4000016) and used ones (4000012)", async () => {
    const { codes } = await withCodes("use@example.com");
    const { browser, answer } = await passwordSignIn(ts, "use@example.com");
    expect(answer.status).toBe(422);
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    expect(stableNodes(nodesOfGroups(flow, ["lookup_secret"]))).toEqual(
      stableNodes(
        vendoredFlowFile<UiNode[]>("kratos.snapshot.login.aal2.lookup-secret.nodes.json").filter(
          (n) => n.group === "lookup_secret",
        ),
      ),
    );

    const invalid = await submitLogin(ts, browser, flow, {
      method: "lookup_secret",
      lookup_secret: "zzzzzzzz",
    });
    expect(invalid.status).toBe(400);
    expect(messageIds(invalid.body as LoginFlow, "")).toEqual([4000016]);

    // Codes are matched whatever the case they are typed in.
    const ok = await submitLogin(ts, browser, invalid.body as LoginFlow, {
      method: "lookup_secret",
      lookup_secret: codes[0]?.toUpperCase(),
    });
    expect(ok.status).toBe(200);
    const session = (ok.body as { session: Session }).session;
    expect(session.authenticator_assurance_level).toBe("aal2");
    expect(session.authentication_methods?.map((m) => m.method)).toEqual([
      "password",
      "lookup_secret",
    ]);

    const { browser: again } = await passwordSignIn(ts, "use@example.com");
    const next = await again.api.createBrowserLoginFlow({ aal: "aal2" });
    const reused = await submitLogin(ts, again, next, {
      method: "lookup_secret",
      lookup_secret: codes[0],
    });
    expect(reused.status).toBe(400);
    expect(messageIds(reused.body as LoginFlow, "")).toEqual([4000012]);
  });
});
