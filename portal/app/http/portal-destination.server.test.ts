// @vitest-environment node
import { describe, expect, it } from "vitest";
import { portalDestination, relativeToPortal } from "./portal-destination.server.ts";

// The test configuration: portal on http://localhost:3000, identity service on 127.0.0.1:4433.
describe("portalDestination", () => {
  it("opens the identity service's locale-less UI URLs as this language's page", () => {
    expect(portalDestination("http://localhost:3000/settings?flow=s1", "es")).toEqual({
      to: "/es/settings?flow=s1",
      document: false,
    });
    expect(portalDestination("http://localhost:3000/verification/?flow=v1", "en")).toEqual({
      to: "/en/verification?flow=v1",
      document: false,
    });
  });

  it("turns the login initialiser (public or internal address) into our login page", () => {
    const back = encodeURIComponent(
      "http://localhost:3000/api/kratos/self-service/settings?flow=s1",
    );
    expect(
      portalDestination(
        `http://localhost:3000/api/kratos/self-service/login/browser?refresh=true&return_to=${back}&via=x`,
        "en",
      ),
    ).toEqual({ to: `/en/login?refresh=true&return_to=${back}`, document: false });
    expect(
      portalDestination("http://127.0.0.1:4433/self-service/login/browser?aal=aal2", "es"),
    ).toEqual({ to: "/es/login?aal=aal2", document: false });
  });

  it("keeps other portal URLs relative; only the portal's own routes load in place", () => {
    expect(portalDestination("http://localhost:3000/", "en")).toEqual({ to: "/", document: false });
    expect(portalDestination("http://localhost:3000/es/login?x=1", "en")).toEqual({
      to: "/es/login?x=1",
      document: false,
    });
    expect(
      portalDestination("http://localhost:3000/api/kratos/self-service/settings?flow=s1", "en"),
    ).toEqual({ to: "/api/kratos/self-service/settings?flow=s1", document: true });
  });

  it("loads other allowed origins as they are, moving the internal identity address onto the proxy", () => {
    expect(portalDestination("http://localhost:4000/agency-selection", "en")).toEqual({
      to: "http://localhost:4000/agency-selection",
      document: true,
    });
    expect(portalDestination("http://127.0.0.1:4433/self-service/errors?id=e1", "en")).toEqual({
      to: "/api/kratos/self-service/errors?id=e1",
      document: true,
    });
  });
});

describe("relativeToPortal", () => {
  it("drops the portal's origin and leaves other URLs alone", () => {
    expect(relativeToPortal("http://localhost:3000/")).toBe("/");
    expect(relativeToPortal("http://localhost:3000/en?x=1#y")).toBe("/en?x=1#y");
    expect(relativeToPortal("http://localhost:4000/")).toBe("http://localhost:4000/");
  });
});
