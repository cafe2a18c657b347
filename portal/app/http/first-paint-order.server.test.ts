// @vitest-environment node
import { describe, expect, it } from "vitest";
import { portalBesideStandIn, startStandInService } from "../../test/stand-in-service.ts";
import { vendorJson } from "../../test/vendor-flows.ts";

// What the browser asks for first (issue 20): the real server over the production build renders a
// real Kratos login flow. The first paint needs the HTML and the stylesheet only; the scripts must
// neither come before the stylesheet in the head nor be fetched at high priority beside it (on a
// throttled link they took its bandwidth and connections, and Lighthouse counted them as
// render-blocking: FCP 2.9× the same page without scripts).

const flow = vendorJson("elements.login.1fa.password.initial.json") as { id: string };

/** A stand-in identity service answering the login flow. */
const startIdentity = () =>
  startStandInService((req, res) => {
    const found = (req.url ?? "").startsWith("/self-service/login/flows");
    res.writeHead(found ? 200 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(found ? flow : { error: { code: 401 } }));
  });

/** The head's <link> tags, in document order. */
function headLinks(html: string): string[] {
  const head = /<head>(.*?)<\/head>/s.exec(html)?.[1] ?? "";
  return [...head.matchAll(/<link\b[^>]*>/g)].map((match) => match[0]);
}

describe("the sign-in page's head", () => {
  const system = portalBesideStandIn(startIdentity);

  it("asks for the stylesheet first, and for the scripts at low priority", async () => {
    const answer = await fetch(`${system.portal.origin}/en/login?flow=${flow.id}`);
    expect(answer.status).toBe(200);
    const links = headLinks(await answer.text());
    const preloads = links.filter((link) => link.includes('rel="modulepreload"'));
    expect(preloads.length, "the page preloads its scripts").toBeGreaterThan(0);
    for (const preload of preloads) expect(preload).toMatch(/fetchPriority="low"/i);
    expect(links[0], "the first link of the head").toMatch(/rel="stylesheet"/);
  });
});
