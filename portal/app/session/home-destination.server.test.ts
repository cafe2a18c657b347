// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubIdentity } from "../../test/identity-stub.ts";
import { vendorJson } from "../../test/vendor-flows.ts";
import { isRecord } from "../flows/node-guards.ts";
import { decideHome } from "./home-destination.server.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

const session = vendorJson("kratos.fixture.session.aal2-password-totp.json");

function withProfile(profile: unknown) {
  if (!isRecord(session) || !isRecord(session.identity)) throw new Error("unexpected fixture");
  return {
    ...session,
    identity: { ...session.identity, metadata_public: { user_profile: profile } },
  };
}

async function decide(path: string) {
  const url = new URL(path, "http://localhost:3000");
  const request = new Request(url, { headers: { cookie: "ory_kratos_session=s" } });
  const decision = await decideHome(request, new RouterContextProvider(), "es", url);
  if (decision.kind !== "redirect") return decision;
  return { kind: "redirect", location: decision.response.headers.get("location") };
}

describe("the start page's decision", () => {
  it("sends a linked, default profile to the SSO portal's root", async () => {
    const { calls } = stubIdentity({
      "GET /sessions/whoami": { status: 200, body: withProfile({ linked: true, default: true }) },
    });
    expect(await decide("/es")).toEqual({ kind: "redirect", location: "http://localhost:4000/" });
    expect(calls[0]?.headers.get("cookie")).toBe("ory_kratos_session=s");
  });

  it("sends everyone else to agency selection", async () => {
    stubIdentity({
      "GET /sessions/whoami": { status: 200, body: withProfile({ linked: true, default: false }) },
    });
    expect(await decide("/es")).toEqual({
      kind: "redirect",
      location: "http://localhost:4000/agency-selection",
    });
  });

  it("honours redirect-state=agency-selection", async () => {
    stubIdentity({
      "GET /sessions/whoami": { status: 200, body: withProfile({ linked: true, default: true }) },
    });
    expect(await decide("/es?redirect-state=agency-selection")).toEqual({
      kind: "redirect",
      location: "http://localhost:4000/agency-selection",
    });
  });

  it("sends visitors without a session to login, and stale ones to a refresh login", async () => {
    stubIdentity({ "GET /sessions/whoami": { status: 401, body: { error: { code: 401 } } } });
    expect(await decide("/es")).toEqual({ kind: "redirect", location: "/es/login" });

    vi.unstubAllGlobals();
    stubIdentity({ "GET /sessions/whoami": { status: 422, body: { error: { code: 422 } } } });
    expect(await decide("/es")).toEqual({ kind: "redirect", location: "/es/login?refresh=true" });
  });

  it("stays when a second factor is still missing (403)", async () => {
    stubIdentity({
      "GET /sessions/whoami": {
        status: 403,
        body: { error: { id: "session_aal2_required", code: 403 } },
        setCookies: ["ory_kratos_session=s2; Path=/"],
      },
    });
    expect(await decide("/es")).toEqual({
      kind: "stay",
      setCookies: ["ory_kratos_session=s2; Path=/"],
    });
  });
});
