import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";

// The discovery document names the issuer's own URLs whatever Host or X-Forwarded-Host a request
// carries, as Hydra's does (it builds them from its configuration): otherwise one request could
// put another site's token endpoint into a document a shared cache then serves to everyone.

let service: OAuth2TestService;
beforeAll(async () => {
  service = await startOAuth2TestService();
});
afterAll(() => service.stop());

/** GET with headers fetch may not set (Host). */
function discoveryWith(headers: Record<string, string>): Promise<Record<string, unknown>> {
  const url = new URL("/.well-known/openid-configuration", service.issuer);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve(JSON.parse(text) as Record<string, unknown>));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the discovery document", () => {
  it("names the issuer's endpoints whatever Host the request says", async () => {
    const document = await discoveryWith({ host: "evil.example" });
    expect(document.issuer).toBe(service.issuer);
    for (const name of ["authorization_endpoint", "token_endpoint", "jwks_uri"]) {
      expect(String(document[name]), name).toMatch(new RegExp(`^${service.issuer}/`));
    }
  });
});
