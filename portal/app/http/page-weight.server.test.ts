// @vitest-environment node
import { describe, expect, it } from "vitest";
import { portalBesideStandIn, startStandInService } from "../../test/stand-in-service.ts";
import { vendorJson } from "../../test/vendor-flows.ts";

// The sign-in page's weight (issue 20): the real server over the production build renders a real
// Kratos login flow; its HTML must stay within 20 kB uncompressed (Ory's plain Node UI sends
// 9.4 kB; the whole catalogue inline made it 45 kB) and still carry the strings it shows.

const budgetBytes = 20 * 1024;
const flow = vendorJson("elements.login.1fa.password.initial.json") as { id: string };

/** A stand-in identity service answering the login flow, and 401 to whoami. */
const startIdentity = () =>
  startStandInService((req, res) => {
    const found = (req.url ?? "").split("?")[0] === "/self-service/login/flows";
    res.writeHead(found ? 200 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(found ? flow : { error: { code: 401 } }));
  });

/** The JSON of the page's strings element (i18n/page-strings.server.ts). */
function pageStrings(html: string): { strings: Record<string, Record<string, string>> } {
  const json = /<script id="page-strings" type="application\/json"[^>]*>(.*?)<\/script>/s.exec(
    html,
  )?.[1];
  expect(json, "the page carries its strings").toBeDefined();
  return JSON.parse(json ?? "{}") as { strings: Record<string, Record<string, string>> };
}

describe("the sign-in page's HTML", () => {
  const system = portalBesideStandIn(startIdentity);

  for (const [lang, title] of [
    ["en", "Sign in"],
    ["es", "Iniciar sesión"],
  ] as const) {
    it(`is at most 20 kB in ${lang}, with the strings it shows and not the whole catalogue`, async () => {
      const answer = await fetch(`${system.portal.origin}/${lang}/login?flow=${flow.id}`);
      expect(answer.status).toBe(200);
      const html = await answer.text();
      expect(html).toContain(`>${title}</h1>`);
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(budgetBytes);

      const strings = pageStrings(html).strings[lang] ?? {};
      expect(strings["login.title"]).toBe(title);
      // Texts of other pages are not sent (the settings page's title, say).
      expect(Object.keys(strings)).not.toContain("settings.title");
      expect(Object.keys(pageStrings(html).strings)).toEqual([lang]);
    });
  }

  it("costs one identity call for a signed-out visitor: no whoami without a session cookie", async () => {
    system.identity.urls.length = 0;
    const answer = await fetch(`${system.portal.origin}/en/login?flow=${flow.id}`, {
      // What a signed-out browser sends: the flow's CSRF cookie, the fingerprint, the language.
      headers: { cookie: "csrf_token_82b5=abc; x-session-entropy=f00; lang=en" },
    });
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
    expect(system.identity.urls.map((url) => url.split("?")[0])).toEqual([
      "/self-service/login/flows",
    ]);
  });
});
