// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { identityErrors, loginFlowSaying } from "../../test/identity-errors.ts";
import type { RecordedAnswer } from "../../test/identity-errors.ts";
import { vendorJson } from "../../test/vendor-flows.ts";
import { followOutcome } from "./follow-outcome.server.ts";
import type { FlowPage, FlowRoute, FollowResult } from "./follow-outcome.server.ts";
import { classifyIdentityAnswer } from "./identity-outcome.ts";
import type { IdentityOutcome } from "./identity-outcome.ts";

const keepOf: Record<FlowPage, readonly string[]> = {
  login: ["return_to", "refresh", "aal", "login_challenge"],
  registration: ["return_to"],
  recovery: ["return_to"],
  verification: ["return_to", "channel"],
  settings: ["return_to"],
};

const settingsReturn = "http://localhost:3000/es/settings";

function route(
  path: string,
  phase: FlowRoute["phase"] = "fetch",
  extra: Partial<FlowRoute> = {},
): FlowRoute {
  const url = new URL(path, "http://localhost:3000");
  const page = (url.pathname.split("/")[2] ?? "login") as FlowPage;
  return {
    locale: "es",
    page,
    url,
    keep: keepOf[page],
    phase,
    ...(page === "settings" ? { returnAfterLogin: settingsReturn } : {}),
    ...extra,
  };
}

/** Classify a recorded answer as the routes do, then follow it. */
function dispatch(answer: RecordedAnswer, on: FlowRoute, cookies: readonly string[] = []) {
  return followOutcome(
    classifyIdentityAnswer(answer, { fetched: on.phase !== "submit" }),
    on,
    cookies,
  );
}

function redirectOf(result: FollowResult) {
  if (result.type !== "redirect") throw new Error(`expected a redirect, got ${result.type}`);
  return {
    status: result.response.status,
    location: result.response.headers.get("location"),
    cookies: result.response.headers.getSetCookie(),
    document: result.response.headers.get("X-Remix-Reload-Document") === "true",
  };
}

async function locationOf(answer: RecordedAnswer, on: FlowRoute) {
  return redirectOf(await dispatch(answer, on)).location;
}

const enc = encodeURIComponent;
const cookies = ["csrf_token_x=abc; Path=/; HttpOnly"];

describe("spec §8 flow error ids", () => {
  it("session_inactive: sign in with refresh=true, returning to the page", async () => {
    expect(await locationOf(identityErrors.sessionInactive, route("/es/settings", "create"))).toBe(
      `/es/login?refresh=true&return_to=${enc(settingsReturn)}`,
    );
  });

  describe("session_aal2_required", () => {
    it("follows redirect_browser_to, adding return_to for settings", async () => {
      const result = await dispatch(identityErrors.aal2Required(), route("/es/settings", "create"));
      expect(redirectOf(result)).toMatchObject({
        location: `/es/login?aal=aal2&return_to=${enc(settingsReturn)}`,
        document: false,
      });
    });

    it("keeps the return_to the identity service put in redirect_browser_to", async () => {
      const flowUrl = "http://localhost:3000/settings?flow=s1";
      expect(
        await locationOf(identityErrors.aal2Required(flowUrl), route("/es/settings?flow=s1")),
      ).toBe(`/es/login?aal=aal2&return_to=${enc(flowUrl)}`);
    });

    it("asks for the second factor at /login?aal=aal2 when no URL was named", async () => {
      const bare = {
        status: 403,
        body: { error: { id: "session_aal2_required", code: 403, status: "Forbidden" } },
      };
      expect(await locationOf(bare, route("/es/registration?flow=r1"))).toBe("/es/login?aal=aal2");
      expect(await locationOf(bare, route("/es/settings?flow=s1"))).toBe(
        `/es/login?aal=aal2&return_to=${enc(settingsReturn)}`,
      );
    });
  });

  describe("session_already_available", () => {
    it("goes to the start page, keeping redirect-state, when the session is valid", async () => {
      const sessionStatus = vi.fn(() => Promise.resolve(200));
      const result = await dispatch(
        identityErrors.sessionAlreadyAvailable,
        route("/es/login?redirect-state=agency-selection", "create", { sessionStatus }),
        cookies,
      );
      expect(sessionStatus).toHaveBeenCalledOnce();
      expect(redirectOf(result)).toMatchObject({
        location: "/es?redirect-state=agency-selection",
        cookies,
      });
    });

    it("asks for the second factor on login when the session still lacks it (whoami 403)", async () => {
      const on = route("/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F", "create", {
        sessionStatus: () => Promise.resolve(403),
      });
      expect(await locationOf(identityErrors.sessionAlreadyAvailable, on)).toBe(
        "/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&aal=aal2",
      );
    });

    it("signs in again with refresh=true when the session check fails", async () => {
      for (const status of [401, 403]) {
        const on = route("/es/registration", "create", {
          sessionStatus: () => Promise.resolve(status),
        });
        expect(await locationOf(identityErrors.sessionAlreadyAvailable, on)).toBe(
          "/es/login?refresh=true",
        );
      }
    });

    it("with an OAuth2 login challenge, continues to the flow's return_to", async () => {
      const sessionStatus = vi.fn(() => Promise.resolve(200));
      const result = await dispatch(
        identityErrors.sessionAlreadyAvailable,
        route(
          "/es/login?login_challenge=c1&return_to=http%3A%2F%2Flocalhost%3A4000%2Fcallback",
          "create",
          { sessionStatus },
        ),
      );
      expect(redirectOf(result)).toMatchObject({
        location: "http://localhost:4000/callback",
        document: true,
      });
      expect(sessionStatus).not.toHaveBeenCalled();
    });
  });

  describe("session_refresh_required", () => {
    it("on settings, follows the redirect to a refresh login with the 5 s notice", async () => {
      const answer = identityErrors.refreshRequired("s1");
      const returnTo = "http://localhost:3000/api/kratos/self-service/settings?flow=s1";
      expect(await locationOf(answer, route("/es/settings?flow=s1", "submit"))).toBe(
        `/es/login?refresh=true&return_to=${enc(returnTo)}&notice=refresh`,
      );
    });

    it("anywhere else, signs out", async () => {
      const answer = identityErrors.refreshRequired("s1");
      expect(await locationOf(answer, route("/es/verification?flow=v1", "submit"))).toBe(
        "/es/logout",
      );
    });
  });

  describe.each([
    [
      "self_service_flow_return_to_forbidden",
      identityErrors.returnToForbidden,
      "return-to-forbidden",
    ],
    ["security_csrf_violation", identityErrors.csrfViolation, "csrf"],
    ["self_service_flow_expired", identityErrors.expiredWithoutReplacement, "expired"],
  ] as const)("%s", (_id, answer, notice) => {
    it("starts the screen's flow again with a notice", async () => {
      const on = route("/es/login?flow=f1&refresh=true&return_to=https%3A%2F%2Fevil.example%2F");
      const kept =
        notice === "return-to-forbidden" ? "" : "return_to=https%3A%2F%2Fevil.example%2F&";
      expect(await locationOf(answer, { ...on, phase: "submit" })).toBe(
        `/es/login?${kept}refresh=true&notice=${notice}`,
      );
    });

    it("turns a second identical failure into an error instead of a loop", async () => {
      const result = await dispatch(
        answer,
        route(`/es/registration?flow=r2&notice=${notice}`, "submit"),
      );
      expect(result).toEqual({ type: "error", status: 400, errorId: notice });
    });
  });

  it("self_service_flow_return_to_forbidden at creation restarts without the address", async () => {
    expect(
      await locationOf(
        identityErrors.returnToForbidden,
        route("/es/login?return_to=https%3A%2F%2Fevil.example%2F", "create"),
      ),
    ).toBe("/es/login?notice=return-to-forbidden");
  });

  it("never restarts a flow that could not be created for another reason", async () => {
    expect(await dispatch(identityErrors.csrfViolation, route("/es/login", "create"))).toEqual({
      type: "error",
      status: 400,
      errorId: "csrf",
    });
  });

  it("self_service_flow_expired with a replacement opens it, with the expired notice", async () => {
    const result = await dispatch(
      identityErrors.flowExpired("f2"),
      route("/es/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F&x=1", "submit"),
      cookies,
    );
    expect(redirectOf(result)).toMatchObject({
      location: "/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&flow=f2&notice=expired",
      cookies,
    });
  });

  it("security_identity_mismatch: resets the flow", async () => {
    expect(
      await locationOf(identityErrors.identityMismatch, route("/es/settings?flow=s1", "submit")),
    ).toBe("/es/settings?notice=identity-mismatch");
  });

  it("browser_location_change_required: navigates to redirect_browser_to", async () => {
    const aal2 = "http://localhost:3000/api/kratos/self-service/login/browser?aal=aal2";
    expect(
      await locationOf(identityErrors.locationChange(aal2), route("/es/login?flow=f1", "submit")),
    ).toBe("/es/login?aal=aal2");
    const result = await dispatch(
      identityErrors.locationChange("http://localhost:4444/oauth2/auth?login_verifier=v"),
      route("/es/login?flow=f1", "submit"),
    );
    expect(redirectOf(result)).toMatchObject({
      location: "http://localhost:4444/oauth2/auth?login_verifier=v",
      document: true,
    });
  });
});

describe("spec §8 HTTP statuses", () => {
  it("410 with use_flow_id opens the replacement flow (verification: self_service_flow_replaced)", async () => {
    expect(
      await locationOf(
        identityErrors.flowReplaced("v2"),
        route("/es/verification?flow=v1&channel=sms", "submit"),
      ),
    ).toBe("/es/verification?channel=sms&flow=v2");
  });

  it("303 to a replacement flow (recovery, verification) opens it", async () => {
    expect(
      await locationOf(
        identityErrors.replacedBy("recovery", "r2"),
        route("/es/recovery?flow=r1", "submit"),
      ),
    ).toBe("/es/recovery?flow=r2");
  });

  it("401 goes to /login (settings: returning to settings)", async () => {
    expect(await locationOf(identityErrors.unauthorized, route("/es/settings?flow=s1"))).toBe(
      `/es/login?return_to=${enc(settingsReturn)}`,
    );
    expect(await locationOf(identityErrors.unauthorized, route("/es/recovery?flow=r1"))).toBe(
      "/es/login",
    );
  });

  it("400 with a flow shows the flow with its messages", async () => {
    const answer = {
      status: 400,
      body: vendorJson("elements.login.1fa.password.wrong-credentials.json"),
    };
    const result = await dispatch(answer, route("/es/login?flow=f1", "submit"));
    expect(result).toMatchObject({ type: "render", status: 400 });
    if (result.type !== "render") return;
    expect(result.flow.ui.messages).toEqual([
      expect.objectContaining({ id: 4000006, type: "error" }),
    ]);
  });

  it("other statuses are errors for the page's 'something went wrong' toast", async () => {
    expect(
      await dispatch(identityErrors.serverError, route("/es/login?flow=f1", "submit")),
    ).toEqual({ type: "error", status: 500, errorId: undefined });
    expect(
      await dispatch(identityErrors.recoveryDisabled, route("/es/recovery?flow=r1", "submit")),
    ).toEqual({ type: "error", status: 400, errorId: undefined });
  });

  it("an unknown flow (404) or a malformed id (400) starts over on a read", async () => {
    expect(await locationOf(identityErrors.notFound, route("/es/login?flow=gone"))).toBe(
      "/es/login?notice=not-found",
    );
    expect(await locationOf(identityErrors.recoveryDisabled, route("/es/login?flow=junk"))).toBe(
      "/es/login?notice=not-found",
    );
  });

  it("any other failed read starts over with 'something went wrong', once", async () => {
    expect(await locationOf(identityErrors.serverError, route("/es/recovery?flow=r1"))).toBe(
      "/es/recovery?notice=failed",
    );
    expect(
      await dispatch(identityErrors.serverError, route("/es/recovery?flow=r2&notice=failed")),
    ).toEqual({ type: "error", status: 400, errorId: "failed" });
  });
});

describe("spec §8 per-screen rules", () => {
  describe("login update", () => {
    it("401 on a second factor: the expired notice and a fresh login", async () => {
      const on = route(
        "/es/login?flow=f1&aal=aal2&return_to=http%3A%2F%2Flocalhost%3A4000%2F",
        "submit",
      );
      expect(await locationOf(identityErrors.aal1Required, on)).toBe(
        "/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&notice=expired",
      );
    });

    it("401 otherwise: the invalid-login state", async () => {
      expect(
        await locationOf(identityErrors.unauthorized, route("/es/login?flow=f1", "submit")),
      ).toBe("/es/login?invalid=true");
    });

    it("a 400 whose message says refresh=true restarts with refresh", async () => {
      const on = route("/es/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F", "submit");
      expect(await locationOf(loginFlowSaying(), on)).toBe(
        "/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&refresh=true",
      );
      expect(await locationOf(identityErrors.sessionAlreadyAvailable, on)).toBe(
        "/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&refresh=true",
      );
    });

    it("other 400 flows are shown, even when they mention refresh elsewhere", async () => {
      const result = await dispatch(
        loginFlowSaying("The provided credentials are invalid."),
        route("/es/login?flow=f1", "submit"),
      );
      expect(result.type).toBe("render");
      const registration = await dispatch(
        loginFlowSaying(),
        route("/es/registration?flow=r1", "submit"),
      );
      expect(registration.type).toBe("render");
    });

    it("a 401 at creation (aal2 without a session) becomes a plain sign-in, keeping the rest", async () => {
      const on = route("/es/login?aal=aal2&login_challenge=c1", "create");
      expect(await locationOf(identityErrors.aal1Required, on)).toBe(
        "/es/login?login_challenge=c1",
      );
    });
  });

  describe("settings", () => {
    it("400 carrying error code 500 is a 'something went wrong' toast", async () => {
      expect(
        await dispatch(identityErrors.internalIn400, route("/es/settings?flow=s1", "submit")),
      ).toEqual({ type: "error", status: 400, errorId: undefined });
    });

    it("… and on a read, a restart with that toast rather than 'expired'", async () => {
      expect(await locationOf(identityErrors.internalIn400, route("/es/settings?flow=s1"))).toBe(
        "/es/settings?notice=failed",
      );
    });

    it("401 goes to /login", async () => {
      expect(
        await locationOf(identityErrors.unauthorized, route("/es/settings?flow=s1", "submit")),
      ).toBe(`/es/login?return_to=${enc(settingsReturn)}`);
    });
  });

  describe("verification", () => {
    it("410 uses use_flow_id", async () => {
      expect(
        await locationOf(identityErrors.flowReplaced("v9"), route("/es/verification?flow=v1")),
      ).toBe("/es/verification?flow=v9");
    });

    it("403 goes to /verification", async () => {
      const forbidden = {
        status: 403,
        body: { error: { code: 403, status: "Forbidden", message: "forbidden" } },
      };
      expect(
        await locationOf(
          forbidden,
          route("/es/verification?flow=v1&return_to=http%3A%2F%2Flocalhost%3A4000%2F", "submit"),
        ),
      ).toBe("/es/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F");
    });

    it("400 on creation goes to /", async () => {
      expect(
        await locationOf(identityErrors.recoveryDisabled, route("/es/verification", "create")),
      ).toBe("/es");
    });
  });
});

describe("spec §2 flow redirects", () => {
  const success = (continueWith: unknown[]): RecordedAnswer => ({
    status: 200,
    body: { session: { id: "s1" }, continue_with: continueWith },
  });

  it("sends continue_with flows to the portal's page in the current language", async () => {
    for (const [action, page] of [
      ["show_settings_ui", "settings"],
      ["show_recovery_ui", "recovery"],
      ["show_verification_ui", "verification"],
    ] as const) {
      const answer = success([{ action, flow: { id: "x1" } }]);
      expect(await locationOf(answer, route("/es/login?flow=f1", "submit"))).toBe(
        `/es/${page}?flow=x1`,
      );
    }
  });

  it("follows the identity service's URL when it places the flow on another origin", async () => {
    const elsewhere = "https://accounts.example.gov/s?flow=s1";
    const result = await dispatch(
      success([{ action: "show_settings_ui", flow: { id: "s1", url: elsewhere } }]),
      route("/es/recovery?flow=r1", "submit"),
    );
    expect(redirectOf(result)).toMatchObject({ location: elsewhere, document: true });
    const own = success([
      {
        action: "show_settings_ui",
        flow: { id: "s1", url: "http://localhost:3000/settings?flow=s1" },
      },
    ]);
    expect(redirectOf(await dispatch(own, route("/es/recovery?flow=r1", "submit")))).toMatchObject({
      location: "/es/settings?flow=s1",
      document: false,
    });
  });

  it("goes to a redirect-browser URL, our own pages staying in the app", async () => {
    const demo = await dispatch(
      success([{ action: "redirect_browser_to", redirect_browser_to: "http://localhost:4000/" }]),
      route("/es/login?flow=f1", "submit"),
      cookies,
    );
    expect(redirectOf(demo)).toMatchObject({
      location: "http://localhost:4000/",
      document: true,
      cookies,
    });
    const own = await dispatch(
      success([
        {
          action: "redirect_browser_to",
          redirect_browser_to: "http://localhost:3000/settings?flow=s1",
        },
      ]),
      route("/es/settings?flow=s1", "submit"),
    );
    expect(redirectOf(own)).toMatchObject({ location: "/es/settings?flow=s1", document: false });
  });

  it("throws for a session-token action and for unknown actions", () => {
    expect(() =>
      classifyIdentityAnswer(
        success([{ action: "set_ory_session_token", ory_session_token: "t" }]),
      ),
    ).toThrow("does not support API flows yet");
    expect(() => classifyIdentityAnswer(success([{ action: "show_teleporter_ui" }]))).toThrow(
      /unknown/i,
    );
  });
});

describe("outcomes without an answer", () => {
  it("sends a sign-in that needs a verified address to the verification page", async () => {
    const outcome: IdentityOutcome = { kind: "verify-address" };
    const result = await followOutcome(
      outcome,
      route("/es/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F"),
      [],
    );
    expect(redirectOf(result).location).toBe(
      "/es/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F",
    );
  });

  it("relays a plain success to the route", async () => {
    expect(
      await followOutcome({ kind: "success", body: { ok: true } }, route("/es/login?flow=f1"), []),
    ).toEqual({ type: "success", body: { ok: true } });
  });
});
