import { describe, expect, it } from "vitest";
import { identityErrors, loginFlowSaying } from "../../test/identity-errors.ts";
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

  it("follows a 410's use_flow_id to the replacement flow, saying whether it expired", () => {
    expect(classifyIdentityAnswer(identityErrors.flowExpired("f2"))).toEqual({
      kind: "use-flow",
      flowId: "f2",
      expired: true,
    });
    expect(classifyIdentityAnswer(identityErrors.flowReplaced("v2"))).toEqual({
      kind: "use-flow",
      flowId: "v2",
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

  it("keeps redirect_browser_to of 403 session_aal2_required, from the top or the details", () => {
    expect(classifyIdentityAnswer(identityErrors.aal2Required())).toEqual({
      kind: "aal2-required",
      url: "http://localhost:3000/api/kratos/self-service/login/browser?aal=aal2",
    });
    const detailsOnly = {
      error: {
        id: "session_aal2_required",
        code: 403,
        details: { redirect_browser_to: "http://localhost:3000/api/kratos/x" },
      },
    };
    expect(classifyIdentityAnswer({ status: 403, body: detailsOnly })).toEqual({
      kind: "aal2-required",
      url: "http://localhost:3000/api/kratos/x",
    });
    expect(
      classifyIdentityAnswer({ status: 403, body: { error: { id: "session_aal2_required" } } }),
    ).toEqual({ kind: "aal2-required" });
  });

  it("starts a new flow on a CSRF violation, an identity mismatch and an unknown flow (404)", () => {
    expect(classifyIdentityAnswer(identityErrors.identityMismatch)).toEqual({
      kind: "restart",
      reason: "identity-mismatch",
    });
    expect(classifyIdentityAnswer(identityErrors.csrfViolation)).toEqual({
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

  it("recognises an existing session, noting Kratos' hint to set refresh=true", () => {
    expect(classifyIdentityAnswer(identityErrors.sessionAlreadyAvailable)).toEqual({
      kind: "session-already-available",
      refreshHint: true,
    });
    const registration = { error: { id: "session_already_available", code: 400 } };
    expect(classifyIdentityAnswer({ status: 400, body: registration })).toEqual({
      kind: "session-already-available",
    });
    expect(classifyIdentityAnswer(loginFlowSaying())).toMatchObject({
      kind: "flow",
      refreshHint: true,
    });
  });

  it("tells a missing session (401) by its error id", () => {
    expect(classifyIdentityAnswer(identityErrors.sessionInactive)).toEqual({
      kind: "needs-login",
      inactive: true,
    });
    expect(classifyIdentityAnswer(identityErrors.aal1Required)).toEqual({
      kind: "needs-login",
      aal1Required: true,
    });
    // Settings fetch/submit and whoami answer 401 without an id: the status decides.
    expect(classifyIdentityAnswer(identityErrors.unauthorized)).toEqual({ kind: "needs-login" });
  });

  it("restarts without the return address when it is forbidden", () => {
    expect(classifyIdentityAnswer(identityErrors.returnToForbidden)).toEqual({
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

  it("keeps the refresh login a settings change asks for", () => {
    expect(classifyIdentityAnswer(identityErrors.refreshRequired("s1"))).toEqual({
      kind: "refresh-required",
      url: "http://localhost:3000/api/kratos/self-service/login/browser?refresh=true&return_to=http%3A%2F%2Flocalhost%3A3000%2Fapi%2Fkratos%2Fself-service%2Fsettings%3Fflow%3Ds1",
    });
  });

  it("reports a plain success and an unexplained failure as such", () => {
    expect(classifyIdentityAnswer({ status: 200, body: { session: { id: "s1" } } })).toMatchObject({
      kind: "success",
    });
    expect(classifyIdentityAnswer(identityErrors.serverError)).toEqual({
      kind: "unknown",
      status: 500,
      errorId: undefined,
      errorCode: 500,
    });
    expect(classifyIdentityAnswer(identityErrors.internalIn400)).toEqual({
      kind: "unknown",
      status: 400,
      errorId: undefined,
      errorCode: 500,
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

  it("finds nothing to do without a list or with an empty one", () => {
    expect(pickContinueWith(undefined)).toBeUndefined();
    expect(pickContinueWith([])).toBeUndefined();
  });

  it("refuses a session token, which only API flows get (spec §8)", () => {
    expect(() => pickContinueWith([token])).toThrow("does not support API flows yet");
    // Lower in priority than a browser redirect, it never wins over one.
    expect(pickContinueWith([token, redirect])).toEqual({ url: "http://localhost:4000/" });
  });

  it("refuses an action it does not know, unless a known one comes first by priority", () => {
    const unknown = { action: "show_pin_entry_ui", flow: { id: "p1" } };
    expect(() => pickContinueWith([unknown])).toThrow(
      'Unknown continue_with action "show_pin_entry_ui"',
    );
    expect(pickContinueWith([unknown, verification])).toEqual({
      page: "verification",
      flowId: "v1",
    });
  });
});
