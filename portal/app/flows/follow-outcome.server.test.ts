// @vitest-environment node
import { describe, expect, it } from "vitest";
import { followOutcome } from "./follow-outcome.server.ts";
import type { FlowRoute } from "./follow-outcome.server.ts";

function route(url: string, phase: FlowRoute["phase"] = "fetch"): FlowRoute {
  return {
    locale: "es",
    page: "login",
    url: new URL(url, "http://localhost:3000"),
    keep: ["return_to", "refresh", "aal"],
    phase,
  };
}

function redirectOf(result: ReturnType<typeof followOutcome>) {
  if (result.type !== "redirect") throw new Error(`expected a redirect, got ${result.type}`);
  return {
    status: result.response.status,
    location: result.response.headers.get("location"),
    cookies: result.response.headers.getSetCookie(),
    document: result.response.headers.get("X-Remix-Reload-Document") === "true",
  };
}

describe("followOutcome", () => {
  const cookies = ["csrf_token_x=abc; Path=/; HttpOnly"];

  it("renders flows and relays nothing else", () => {
    const flow = { id: "f1", ui: { nodes: [] } };
    expect(
      followOutcome({ kind: "flow", status: 400, flow }, route("/es/login?flow=f1"), []),
    ).toEqual({
      type: "render",
      flow,
      status: 400,
    });
  });

  it("opens the replacement flow of a 410, keeping return_to and relaying cookies", () => {
    const result = followOutcome(
      { kind: "use-flow", flowId: "f2" },
      route("/es/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F&x=1"),
      cookies,
    );
    expect(redirectOf(result)).toMatchObject({
      location: "/es/login?return_to=http%3A%2F%2Flocalhost%3A4000%2F&flow=f2",
      cookies,
    });
  });

  it("loads URLs chosen by the identity service as whole documents", () => {
    const elsewhere = followOutcome(
      { kind: "redirect", url: "http://localhost:4000/agency-selection" },
      route("/es/login?flow=f1"),
      cookies,
    );
    const proxied = followOutcome(
      {
        kind: "redirect",
        url: "http://localhost:3000/api/kratos/self-service/settings?flow=s1",
      },
      route("/es/login?flow=f1"),
      [],
    );
    expect(redirectOf(elsewhere)).toMatchObject({
      location: "http://localhost:4000/agency-selection",
      document: true,
      cookies,
    });
    expect(redirectOf(proxied)).toMatchObject({
      location: "/api/kratos/self-service/settings?flow=s1",
      document: true,
    });
  });

  it("sends the identity service's login initialiser through the portal's own login page", () => {
    const returnTo = "http://localhost:3000/api/kratos/self-service/settings?flow=s1";
    const result = followOutcome(
      {
        kind: "redirect",
        url: `http://localhost:3000/api/kratos/self-service/login/browser?refresh=true&return_to=${encodeURIComponent(returnTo)}`,
        refresh: true,
      },
      route("/es/settings?flow=s1"),
      cookies,
    );
    expect(redirectOf(result)).toMatchObject({
      location: `/es/login?refresh=true&return_to=${encodeURIComponent(returnTo)}&notice=refresh`,
      document: false,
      cookies,
    });
  });

  it("opens the identity service's locale-less UI URLs as this language's page", () => {
    const result = followOutcome(
      {
        kind: "continue",
        target: { url: "http://localhost:3000/settings?flow=s1" },
      },
      route("/es/settings?flow=s1"),
      [],
    );
    expect(redirectOf(result)).toMatchObject({ location: "/es/settings?flow=s1", document: false });
  });

  it("sends continue_with flows to the portal's page in the current language", () => {
    const result = followOutcome(
      { kind: "continue", target: { page: "verification", flowId: "v1" } },
      route("/es/login?flow=f1"),
      [],
    );
    const withOwnUrl = followOutcome(
      {
        kind: "continue",
        target: {
          page: "settings",
          flowId: "s1",
          url: "http://localhost:3000/settings?flow=s1",
        },
      },
      route("/es/recovery?flow=r1"),
      cookies,
    );
    const onAnotherOrigin = followOutcome(
      {
        kind: "continue",
        target: { page: "settings", flowId: "s1", url: "https://accounts.example.gov/s?flow=s1" },
      },
      route("/es/recovery?flow=r1"),
      [],
    );
    expect(redirectOf(result).location).toBe("/es/verification?flow=v1");
    expect(redirectOf(withOwnUrl)).toMatchObject({
      location: "/es/settings?flow=s1",
      document: false,
      cookies,
    });
    expect(redirectOf(onAnotherOrigin)).toMatchObject({
      location: "https://accounts.example.gov/s?flow=s1",
      document: true,
    });
  });

  it("sends a sign-in that needs a verified address to the verification page", () => {
    const result = followOutcome(
      { kind: "verify-address" },
      route("/es/login?flow=f1&return_to=http%3A%2F%2Flocalhost%3A4000%2F"),
      [],
    );
    expect(redirectOf(result).location).toBe(
      "/es/verification?return_to=http%3A%2F%2Flocalhost%3A4000%2F",
    );
  });

  it("restarts a flow with a notice, and turns a second identical failure into an error", () => {
    const first = followOutcome(
      { kind: "restart", reason: "csrf" },
      route("/es/login?flow=f1&refresh=true"),
      [],
    );
    expect(redirectOf(first).location).toBe("/es/login?refresh=true&notice=csrf");

    const again = followOutcome(
      { kind: "restart", reason: "csrf" },
      route("/es/login?flow=f2&refresh=true&notice=csrf"),
      [],
    );
    expect(again).toEqual({ type: "error", status: 400, errorId: "csrf" });
  });

  it("drops a forbidden return_to when restarting", () => {
    const result = followOutcome(
      { kind: "restart", reason: "return-to-forbidden" },
      route("/es/login?flow=f1&return_to=https%3A%2F%2Fevil.example"),
      [],
    );
    expect(redirectOf(result).location).toBe("/es/login?notice=return-to-forbidden");
  });

  it("never restarts a flow that could not be created", () => {
    expect(
      followOutcome({ kind: "restart", reason: "csrf" }, route("/es/login", "create"), []),
    ).toEqual({
      type: "error",
      status: 400,
      errorId: "csrf",
    });
  });

  it("sends a signed-in user to the start page, keeping redirect-state", () => {
    const result = followOutcome(
      { kind: "session-already-available" },
      route("/es/login?redirect-state=agency-selection"),
      cookies,
    );
    expect(redirectOf(result)).toMatchObject({
      location: "/es?redirect-state=agency-selection",
      cookies,
    });
  });

  it("asks for the right kind of login", () => {
    const refresh = followOutcome(
      { kind: "needs-login", refresh: true, aal2: false },
      route("/es/registration"),
      [],
    );
    const aal2 = followOutcome(
      { kind: "needs-login", refresh: false, aal2: true },
      route("/es/registration"),
      [],
    );
    const settings = followOutcome(
      { kind: "needs-login", refresh: false, aal2: false },
      {
        ...route("/es/settings"),
        page: "settings",
        returnAfterLogin: "http://localhost:3000/es/settings",
      },
      [],
    );
    expect(redirectOf(refresh).location).toBe("/es/login?refresh=true&notice=refresh");
    expect(redirectOf(aal2).location).toBe("/es/login?aal=aal2");
    expect(redirectOf(settings).location).toBe(
      "/es/login?return_to=http%3A%2F%2Flocalhost%3A3000%2Fes%2Fsettings",
    );
  });

  it("starts over when a flow id is malformed (400 without a flow) on fetch only", () => {
    const malformed = { kind: "unknown", status: 400, errorId: undefined } as const;
    expect(redirectOf(followOutcome(malformed, route("/es/login?flow=junk"), [])).location).toBe(
      "/es/login?notice=not-found",
    );
    expect(followOutcome(malformed, route("/es/login?flow=f1", "submit"), [])).toEqual({
      type: "error",
      status: 400,
      errorId: undefined,
    });
  });
});
