import { describe, expect, it } from "vitest";
import { vendorJson } from "../../test/vendor-flows.ts";
import { pickContinueWith } from "./continue-with.ts";
import { classifyIdentityAnswer } from "./identity-outcome.ts";

const wrongCredentials = vendorJson("elements.login.1fa.password.wrong-credentials.json");

describe("classifyIdentityAnswer", () => {
  it("renders a 400 whose body is a flow (validation errors, a next step)", () => {
    const outcome = classifyIdentityAnswer({ status: 400, body: wrongCredentials });
    expect(outcome).toMatchObject({
      kind: "flow",
      status: 400,
      flow: { id: "00000000-0000-0000-0000-000000000000" },
    });
  });

  it("renders a fetched flow (200)", () => {
    const body = vendorJson("elements.login.1fa.password.initial.json");
    expect(classifyIdentityAnswer({ status: 200, body })).toMatchObject({
      kind: "flow",
      status: 200,
    });
  });

  it("follows a 410's use_flow_id to the replacement flow", () => {
    const body = {
      error: { id: "self_service_flow_expired", code: 410, status: "Gone", message: "expired" },
      expired_at: "2026-11-21T10:00:00Z",
      since: 3600000000000,
      use_flow_id: "9a7b2c1d-0000-4000-8000-000000000001",
    };
    expect(classifyIdentityAnswer({ status: 410, body })).toEqual({
      kind: "use-flow",
      flowId: "9a7b2c1d-0000-4000-8000-000000000001",
    });
  });

  it("restarts an expired flow that names no replacement (410 on fetch)", () => {
    const body = { error: { id: "self_service_flow_expired", code: 410 } };
    expect(classifyIdentityAnswer({ status: 410, body })).toEqual({
      kind: "restart",
      reason: "expired",
    });
  });

  it("sends the browser to redirect_browser_to on 422", () => {
    const body = {
      error: { id: "browser_location_change_required", code: 422 },
      redirect_browser_to: "http://localhost:3000/api/kratos/self-service/login/browser?aal=aal2",
    };
    expect(classifyIdentityAnswer({ status: 422, body })).toEqual({
      kind: "redirect",
      url: "http://localhost:3000/api/kratos/self-service/login/browser?aal=aal2",
    });
  });

  it("follows redirect_browser_to on 403 session_aal2_required, else asks for aal2 login", () => {
    const withUrl = {
      error: { id: "session_aal2_required", code: 403 },
      redirect_browser_to: "http://localhost:3000/api/kratos/self-service/login/browser?aal=aal2",
    };
    expect(classifyIdentityAnswer({ status: 403, body: withUrl })).toMatchObject({
      kind: "redirect",
    });
    expect(
      classifyIdentityAnswer({ status: 403, body: { error: { id: "session_aal2_required" } } }),
    ).toEqual({ kind: "needs-login", refresh: false, aal2: true });
  });

  it("starts a new flow on a CSRF violation and on an unknown flow (404)", () => {
    const csrf = { error: { id: "security_csrf_violation", code: 403, reason: "mismatch" } };
    expect(classifyIdentityAnswer({ status: 403, body: csrf })).toEqual({
      kind: "restart",
      reason: "csrf",
    });
    expect(
      classifyIdentityAnswer({
        status: 404,
        body: vendorJson("kratos.snapshot.error.not-found.json"),
      }),
    ).toEqual({ kind: "restart", reason: "not-found" });
  });

  it("recognises an existing session and a missing one", () => {
    const already = { error: { id: "session_already_available", code: 400 } };
    expect(classifyIdentityAnswer({ status: 400, body: already })).toEqual({
      kind: "session-already-available",
    });
    // whoami's 401 carries no error id in this Kratos version: the status decides.
    const noSession = { error: { code: 401, status: "Unauthorized" } };
    expect(classifyIdentityAnswer({ status: 401, body: noSession })).toEqual({
      kind: "needs-login",
      refresh: false,
      aal2: false,
    });
  });

  it("restarts without the return address when it is forbidden", () => {
    const body = { error: { id: "self_service_flow_return_to_forbidden", code: 400 } };
    expect(classifyIdentityAnswer({ status: 400, body })).toEqual({
      kind: "restart",
      reason: "return-to-forbidden",
    });
  });

  it("follows continue_with on a successful submit", () => {
    const body = {
      session: { id: "s1" },
      continue_with: [
        { action: "redirect_browser_to", redirect_browser_to: "http://localhost:4000/" },
      ],
    };
    expect(classifyIdentityAnswer({ status: 200, body })).toEqual({
      kind: "continue",
      target: { url: "http://localhost:4000/" },
    });
  });

  it("shows a flow that was read, even when it still carries continue_with", () => {
    const flow = {
      id: "s1",
      ui: { nodes: [] },
      continue_with: [
        {
          action: "redirect_browser_to",
          redirect_browser_to: "http://localhost:3000/settings?flow=s1",
        },
      ],
    };
    expect(classifyIdentityAnswer({ status: 200, body: flow }, { fetched: true })).toEqual({
      kind: "flow",
      status: 200,
      flow,
    });
    expect(classifyIdentityAnswer({ status: 200, body: flow })).toMatchObject({ kind: "continue" });
  });

  it("opens the replacement flow a 303 names (recovery retries and expiry)", () => {
    expect(
      classifyIdentityAnswer({
        status: 303,
        body: null,
        location: "http://localhost:3000/api/kratos/self-service/recovery/flows?id=r2",
      }),
    ).toEqual({ kind: "use-flow", flowId: "r2" });
    expect(
      classifyIdentityAnswer({ status: 303, body: null, location: "http://localhost:3000/x" }),
    ).toEqual({ kind: "redirect", url: "http://localhost:3000/x" });
  });

  it("follows 403 session_verified_address_required to its verification flow", () => {
    const continueWith = [
      {
        action: "show_verification_ui",
        flow: {
          id: "v9",
          verifiable_address: "jane@example.gov",
          url: "http://x/verification?flow=v9",
        },
      },
    ];
    const body = {
      error: {
        id: "session_verified_address_required",
        code: 400,
        details: { continue_with: continueWith },
      },
    };
    expect(classifyIdentityAnswer({ status: 403, body })).toEqual({
      kind: "continue",
      target: { page: "verification", flowId: "v9", url: "http://x/verification?flow=v9" },
    });
    expect(
      classifyIdentityAnswer({
        status: 403,
        body: { error: { id: "session_verified_address_required", code: 400 } },
      }),
    ).toEqual({ kind: "verify-address" });
  });

  it("marks a refresh redirect, so the login page can say why it asks again", () => {
    const body = {
      error: { id: "session_refresh_required", code: 403 },
      redirect_browser_to:
        "http://localhost:3000/api/kratos/self-service/login/browser?refresh=true",
    };
    expect(classifyIdentityAnswer({ status: 403, body })).toEqual({
      kind: "redirect",
      url: "http://localhost:3000/api/kratos/self-service/login/browser?refresh=true",
      refresh: true,
    });
  });

  it("reports a plain success and an unexplained failure as such", () => {
    expect(classifyIdentityAnswer({ status: 200, body: { session: { id: "s1" } } })).toMatchObject({
      kind: "success",
    });
    expect(classifyIdentityAnswer({ status: 500, body: { error: { code: 500 } } })).toEqual({
      kind: "unknown",
      status: 500,
      errorId: undefined,
    });
  });
});

describe("pickContinueWith", () => {
  const verification = {
    action: "show_verification_ui",
    flow: { id: "v1", verifiable_address: "jane@example.gov" },
  };
  const redirect = { action: "redirect_browser_to", redirect_browser_to: "http://localhost:4000/" };
  const token = { action: "set_ory_session_token", ory_session_token: "ory_st_x" };

  it("prefers settings, then recovery, then verification, then a browser redirect", () => {
    const settings = { action: "show_settings_ui", flow: { id: "s1" } };
    const recovery = { action: "show_recovery_ui", flow: { id: "r1" } };
    expect(pickContinueWith([redirect, verification, recovery, settings])).toEqual({
      page: "settings",
      flowId: "s1",
    });
    expect(pickContinueWith([redirect, verification, recovery])).toEqual({
      page: "recovery",
      flowId: "r1",
    });
    expect(pickContinueWith([token, redirect, verification])).toEqual({
      page: "verification",
      flowId: "v1",
    });
    expect(pickContinueWith([token, redirect])).toEqual({ url: "http://localhost:4000/" });
  });

  it("keeps a flow's own url beside its id, for the caller to judge", () => {
    const withUrl = {
      ...verification,
      flow: { ...verification.flow, url: "http://localhost:3000/verification?flow=v1" },
    };
    expect(pickContinueWith([redirect, withUrl])).toEqual({
      page: "verification",
      flowId: "v1",
      url: "http://localhost:3000/verification?flow=v1",
    });
  });

  it("finds nothing to do with a session token alone or with no list", () => {
    expect(pickContinueWith([token])).toBeUndefined();
    expect(pickContinueWith(undefined)).toBeUndefined();
  });
});
