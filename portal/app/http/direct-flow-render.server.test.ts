// @vitest-environment node
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { portalBesideStandIn, startStandInService } from "../../test/stand-in-service.ts";
import { vendorJson } from "../../test/vendor-flows.ts";

// A flow page opened without ?flow= (issue 20): the real server over the production build
// creates the flow and renders it in the same response, with the flow's CSRF cookie, the form's
// action naming the flow, and the script that puts the flow into the address bar. A client
// navigation's data request is still redirected to the address that names the flow.

const flow = {
  ...(vendorJson("elements.login.1fa.password.initial.json") as object),
  id: "7d5a2a37-6f0e-4a8e-9c61-0d2f7a9b1c11",
};
const csrfCookie = "csrf_token_82b5=fresh-token; Path=/; HttpOnly; SameSite=Lax";

/** A stand-in identity service: creates the login flow (with its CSRF cookie), 401 to whoami. */
const startIdentity = () =>
  startStandInService((req, res) => {
    if ((req.url ?? "").split("?")[0] === "/self-service/login/browser") {
      res.writeHead(200, { "content-type": "application/json", "set-cookie": csrfCookie });
      res.end(JSON.stringify(flow));
      return;
    }
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: 401, id: "session_inactive" } }));
  });

const decoded = (text: string) => text.replaceAll("&amp;", "&");

describe("a flow page opened without a flow", () => {
  const system = portalBesideStandIn(startIdentity);

  it("renders the new flow in the same response, with its cookie, not a redirect", async () => {
    system.identity.urls.length = 0;
    const returnTo = encodeURIComponent("http://localhost:4000/after");
    const answer = await fetch(`${system.portal.origin}/en/login?return_to=${returnTo}`, {
      redirect: "manual",
    });

    expect(answer.status).toBe(200);
    // The flow's CSRF cookie (beside the portal's own language cookie).
    expect(answer.headers.getSetCookie()).toContain(csrfCookie);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const html = await answer.text();
    const address = `?return_to=${returnTo}&flow=${flow.id}`;
    // Every form of the page posts to the address that names the flow (works without JavaScript).
    const action = /<form[^>]*\baction="([^"]*)"[^>]*\bmethod="post"/i.exec(html)?.[1];
    expect(decoded(action ?? "")).toBe(`/en/login${address}`);
    // With JavaScript the address bar names the flow before the page hydrates (reload keeps it).
    const replace = `history.replaceState(history.state,"",${JSON.stringify(address)}+location.hash)`;
    expect(html).toContain(replace);
    // Before the page's strings, which hydration waits for: a document that arrives in parts
    // still hydrates at the address the server rendered.
    expect(html.indexOf(replace)).toBeLessThan(html.indexOf('id="page-strings"'));
    // One identity call: the flow's creation, with return_to passed on; no read after it.
    expect(system.identity.urls).toEqual([`/self-service/login/browser?return_to=${returnTo}`]);
  });

  it("redirects a client navigation's data request to the address that names the flow", async () => {
    const answer = await fetch(`${system.portal.origin}/en/login.data`, { redirect: "manual" });

    // React Router answers a data request's redirect as 202 with the target in its body.
    const body = await answer.text();
    expect(body).toContain(`/en/login?flow=${flow.id}`);
    expect(answer.headers.getSetCookie()).toContain(csrfCookie);
  });

  it("answers a request line in absolute form or `*` with a 400, not a 500", async () => {
    const { hostname, port } = new URL(system.portal.origin);
    for (const target of ["http://evil.example/en/login?x=1", "*"]) {
      const head = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
        });
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(head.split("\r\n")[0], target).toBe("HTTP/1.1 400 Bad Request");
    }
  });
});
