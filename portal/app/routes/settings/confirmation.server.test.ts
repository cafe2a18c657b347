// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../../test/identity-stub.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { submitSettings } from "./settings.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const csrf = "AAAAAAA/AAAAAA/2+AAAAAAAA==";
const linked = { ...(vendorJson("elements.settings.totp.linked.json") as object), id: "s1" };
const setupJson = vendorJson("elements.settings.totp.setup.json") as { ui: object };
const setup = { ...setupJson, id: "s1" };
/** A flow whose backup-code group offers to disable stored codes (so codes exist). */
const withStoredCodes = {
  ...setup,
  ui: {
    ...setupJson.ui,
    nodes: [
      {
        type: "input",
        group: "lookup_secret",
        attributes: { name: "lookup_secret_disable", type: "submit", value: "true" },
        messages: [],
        meta: {},
      },
    ],
  },
};

function post(fields: Record<string, string>, query = "flow=s1&return_to=%2Fhome") {
  const url = new URL(`/es/settings?${query}`, "http://localhost:3000");
  return {
    request: new Request(url, {
      method: "POST",
      body: new URLSearchParams({ csrf_token: csrf, ...fields }),
      headers: { cookie: "ory_kratos_session=s; csrf=c" },
    }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c-1" }),
    locale: "es" as const,
    url,
  };
}

function locationOf(result: unknown): string | null {
  if (!(result instanceof Response)) throw new Error("expected a redirect");
  expect(result.status).toBe(303);
  return result.headers.get("location");
}

describe("destructive settings actions ask first", () => {
  it.each([
    [{ totp_unlink: "true" }, "totp_unlink", "settings-totp"],
    [
      { code_mfa_disable: "jane@example.gov" },
      "code_mfa_disable&confirm_value=jane%40example.gov",
      "settings-code",
    ],
    [{ lookup_secret_disable: "true" }, "lookup_secret_disable", "settings-backup-codes"],
    [{ intent: "revoke-other-sessions" }, "revoke_others", "settings-sessions"],
    [{ passkey_remove: "6b6579" }, "passkey_remove&confirm_value=6b6579", "settings-passkeys"],
    [{ webauthn_remove: "a1b2" }, "webauthn_remove&confirm_value=a1b2", "settings-security-keys"],
    // Other spellings of "true" the identity service accepts (found by an independent attack).
    [{ totp_unlink: "T" }, "totp_unlink", "settings-totp"],
    [{ lookup_secret_disable: "1" }, "lookup_secret_disable", "settings-backup-codes"],
  ])(
    "%j without its confirmation goes back to the page asking, and reaches no one",
    async (fields, action, card) => {
      const { calls } = stubIdentity({});

      const result = await submitSettings(post(fields));

      expect(locationOf(result)).toBe(
        `/es/settings?flow=s1&return_to=%2Fhome&confirm=${action}#${card}`,
      );
      expect(calls).toHaveLength(0);
    },
  );

  it("a confirmation of another action does not count", async () => {
    const { calls } = stubIdentity({});

    const result = await submitSettings(
      post({ totp_unlink: "true", confirm_action: "lookup_secret_disable" }),
    );

    expect(locationOf(result)).toContain("confirm=totp_unlink");
    expect(calls).toHaveLength(0);
  });

  it("once confirmed, the identity service receives exactly the button's fields", async () => {
    const { calls } = stubIdentity({ "POST /self-service/settings": { status: 200, body: setup } });

    await submitSettings(post({ totp_unlink: "true", confirm_action: "totp_unlink" }));

    expect(calls.map((call) => call.body)).toEqual([{ totp_unlink: "true", csrf_token: csrf }]);
  });

  it("a confirmed passkey removal sends Kratos' passkey_remove with the credential's id", async () => {
    const { calls } = stubIdentity({ "POST /self-service/settings": { status: 200, body: setup } });

    await submitSettings(post({ passkey_remove: "6b6579", confirm_action: "passkey_remove" }));

    expect(calls.map((call) => call.body)).toEqual([
      { passkey_remove: "6b6579", csrf_token: csrf },
    ]);
  });

  it("generating replaces stored backup codes only after confirmation", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: withStoredCodes },
    });

    const result = await submitSettings(post({ lookup_secret_regenerate: "true" }));

    expect(locationOf(result)).toContain("confirm=lookup_secret_regenerate#settings-backup-codes");
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([
      "GET /self-service/settings/flows",
    ]);
  });

  it("the first backup codes (none stored) are generated without asking", async () => {
    const { calls } = stubIdentity({
      "GET /self-service/settings/flows": { status: 200, body: linked },
      "POST /self-service/settings": { status: 200, body: linked },
    });

    await submitSettings(post({ lookup_secret_regenerate: "true" }));

    expect(calls.at(-1)?.body).toEqual({ lookup_secret_regenerate: "true", csrf_token: csrf });
  });
});

/** A post as typed by hand: `body` may carry a field twice. */
function postRaw(body: string) {
  const url = new URL("/es/settings?flow=s1", "http://localhost:3000");
  return {
    request: new Request(url, {
      method: "POST",
      body: new URLSearchParams(`csrf_token=${encodeURIComponent(csrf)}&${body}`),
      headers: { cookie: "ory_kratos_session=s; csrf=c" },
    }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c-1" }),
    locale: "es" as const,
    url,
  };
}

describe("a settings post naming more than one action", () => {
  it.each([
    // The confirmation check read the last intent, the sessions handler the first.
    ["intent=revoke-other-sessions&intent=x"],
    ["intent=x&intent=revoke-other-sessions"],
    // The confirmation was for "disable", the identity service was sent "reveal".
    ["lookup_secret_disable=true&lookup_secret_reveal=true&confirm_action=lookup_secret_disable"],
    ["totp_unlink=true&lookup_secret_disable=true&confirm_action=totp_unlink"],
    ["totp_unlink=true&confirm_action=totp_unlink&confirm_action=totp_unlink"],
    ["code_mfa_disable=a%40example.gov&code_mfa_disable=b%40example.gov"],
  ])("%s is refused (400) before anything is sent on", async (body) => {
    const { calls } = stubIdentity({
      "POST /self-service/settings": { status: 200, body: setup },
      "DELETE /sessions": { status: 200, body: { count: 1 } },
    });

    const result = await submitSettings(postRaw(body));

    expect(result).toMatchObject({
      data: { notice: "notice.somethingWentWrong" },
      init: { status: 400 },
    });
    expect(calls).toHaveLength(0);
  });

  it("one action with its confirmation still goes on", async () => {
    const { calls } = stubIdentity({ "POST /self-service/settings": { status: 200, body: setup } });

    await submitSettings(
      postRaw("lookup_secret_disable=true&confirm_action=lookup_secret_disable"),
    );

    expect(calls.map((call) => call.body)).toEqual([
      { lookup_secret_disable: "true", csrf_token: csrf },
    ]);
  });
});
