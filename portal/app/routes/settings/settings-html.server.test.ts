// @vitest-environment node
import { describe, expect, it } from "vitest";
import { portalBesideStandIn, startStandInService } from "../../../test/stand-in-service.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";

// Issue 19: the settings cards' code is not part of the page's scripts (cards/lazy-card.tsx);
// each card sits in a Suspense boundary of its own. The real server over the production build
// must still send every card in place: past 12.8 kB of HTML React would move a finished boundary
// behind a script that reveals it, and without JavaScript those cards never showed.

/** Kratos' settings flow with profile, password, passkey and security-key nodes. */
const flow = vendorJson("elements.settings.password.changed.json") as { id: string };

/** A stand-in identity service answering the settings flow; no session for the rest. */
const startIdentity = () =>
  startStandInService((req, res) => {
    const found = (req.url ?? "").split("?")[0] === "/self-service/settings/flows";
    res.writeHead(found ? 200 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(found ? flow : { error: { code: 401 } }));
  });

describe("the settings page's HTML", () => {
  const system = portalBesideStandIn(startIdentity);

  it("holds every card in place, none sent after the rest behind a script", async () => {
    const answer = await fetch(`${system.portal.origin}/en/settings?flow=${flow.id}`);
    expect(answer.status).toBe(200);
    const html = await answer.text();

    expect(html.length).toBeGreaterThan(12_800);
    for (const card of [
      "settings-profile",
      "settings-password",
      "settings-passkeys",
      "settings-security-keys",
    ]) {
      expect(html).toContain(`<section id="${card}"`);
    }
    // React's outlined boundaries: a hidden segment, moved in by a script.
    expect(html).not.toMatch(/<div hidden id="S:/);
  });
});
