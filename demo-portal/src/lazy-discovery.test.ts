import { createServer } from "node:net";
import { afterAll, expect, it } from "vitest";
import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";
import {
  clientSecret,
  demoPublicUrl,
  startIdentityStack,
  type IdentityStack,
} from "./test-support/identity-stack.ts";

let stack: IdentityStack | undefined;
afterAll(() => stack?.stop());

/** A port nothing listens on right now (free once the probe closes). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

it("discovers the issuer on first use, and again after it failed (the OAuth2 service may start later)", async () => {
  const port = await freePort();
  const issuer = `http://localhost:${port}`;
  const demo = buildDemoPortal(
    loadDemoConfig({
      DEMO_PUBLIC_URL: demoPublicUrl,
      DEMO_OIDC_ISSUER: issuer,
      DEMO_OIDC_CLIENT_SECRET: clientSecret,
      LOG_LEVEL: "silent",
    }),
  );
  try {
    // Building the app did not need the issuer; pages without sign-in work without it.
    expect((await demo.inject({ url: "/" })).statusCode).toBe(200);

    const early = await demo.inject({ url: "/auth/login?return_to=/agency-selection" });
    expect(early.statusCode).toBe(503);
    expect(early.body).toContain("The sign-in service is not reachable right now");
    expect(early.body).toContain('href="/auth/login?return_to=%2Fagency-selection">Try again<');

    stack = await startIdentityStack({
      IDENTITY_OAUTH2_PUBLIC_PORT: String(port),
      IDENTITY_OAUTH2_ISSUER: issuer,
    });
    const later = await demo.inject({ url: "/auth/login?return_to=/agency-selection" });
    expect(later.statusCode).toBe(303);
    expect(String(later.headers.location)).toMatch(`${issuer}/oauth2/auth?`);
  } finally {
    await demo.close();
  }
});
