// @vitest-environment node
import { describe, expect, it } from "vitest";
import { portalBesideStandIn, startStandInService } from "../../test/stand-in-service.ts";

// A request anyone can send without a session or a token must not write a stack trace to the
// server's log (a cheap way to flood it, and lines that are not JSON where LOG_FORMAT=json): a
// page asked with a method it does not take, a form post from another origin (React Router's own
// check refuses it with a plain Error). Each is answered 4xx and logged as one request line.

const startIdentity = () =>
  startStandInService((_req, res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: 401, id: "session_inactive" } }));
  });

describe("what a client's mistake writes to the portal's log", () => {
  const system = portalBesideStandIn(startIdentity);

  it("answers 4xx and logs no stack trace", async () => {
    const before = system.portal.output().length;
    const foreignPost = (path: string) =>
      fetch(`${system.portal.origin}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          origin: "http://evil.example",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "a=b",
      });
    expect((await foreignPost("/en/login?flow=x")).status).toBe(400);
    expect((await foreignPost("/en/settings")).status).toBe(400);
    expect((await fetch(`${system.portal.origin}/en/login`, { method: "OPTIONS" })).status).toBe(
      405,
    );
    // A last request whose line in the request log follows whatever the others wrote (the child
    // writes to its pipes synchronously; one more turn of the loop reads both pipes).
    await fetch(`${system.portal.origin}/assets/last-request-marker.js`);
    await expect
      .poll(() => system.portal.output().slice(before), { timeout: 20_000 })
      .toContain("last-request-marker");
    await new Promise((resolve) => setImmediate(resolve));
    const written = system.portal.output().slice(before);
    expect(written).toContain('"status":400');
    expect(written).toContain('"status":405');
    expect(written).not.toMatch(/Aborting the action|Invalid request method|\n\s+at /);
  }, 60_000);
});
