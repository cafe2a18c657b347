import { afterAll, describe, expect, it } from "vitest";
import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";
import { DemoBrowser } from "./test-support/demo-browser.ts";
import { acceptedLang } from "./view.ts";

// Pages without a session never reach the OAuth2 service (discovery is lazy): no issuer runs.
const demo = buildDemoPortal(
  loadDemoConfig({
    DEMO_PUBLIC_URL: "http://localhost:4000",
    PORTAL_PUBLIC_URL: "http://localhost:3000",
    DEMO_OIDC_ISSUER: "http://127.0.0.1:9",
    DEMO_OIDC_CLIENT_SECRET: "a-test-secret-that-is-long-enough-000",
    LOG_LEVEL: "silent",
  }),
);

afterAll(async () => {
  await demo.close();
});

describe("the agency product's language", () => {
  it("follows the browser's Accept-Language", async () => {
    const response = await demo.inject({
      url: "/",
      headers: { "accept-language": "es-MX,es;q=0.9,en;q=0.5" },
    });
    expect(response.body).toContain('<html lang="es"');
    expect(response.body).toContain("No ha iniciado sesión.");
    expect(response.body).toContain('<a href="/auth/login">Iniciar sesión</a>');
  });

  it("takes ?lang= over the header and remembers it", async () => {
    const browser = new DemoBrowser(demo);
    const chosen = await browser.get("/agency-selection?lang=es");
    expect(chosen.body).toContain("Seleccione su agencia");
    expect(chosen.body).toContain(
      '<a href="?lang=es" hreflang="es" lang="es" aria-current="true">',
    );
    const later = await browser.get("/");
    expect(later.body).toContain('<html lang="es"');
    expect((await browser.get("/?lang=en")).body).toContain("You are not signed in.");
  });

  it("reads quality-ordered headers and ignores what it does not speak", () => {
    expect(acceptedLang("fr-FR, es;q=0.8")).toBe("es");
    expect(acceptedLang("de")).toBeUndefined();
    expect(acceptedLang(undefined)).toBeUndefined();
  });
});

describe("the agency product's theme", () => {
  it("follows the portal's theme cookie, else the system's preference", async () => {
    const dark = await demo.inject({ url: "/", cookies: { theme: "dark" } });
    expect(dark.body).toContain('<html lang="en" class="dark">');
    const unset = await demo.inject({ url: "/" });
    expect(unset.body).toContain('<html lang="en">');
    expect(unset.body).toContain("@media (prefers-color-scheme:dark){html:not(.light)");
    const odd = await demo.inject({ url: "/", cookies: { theme: "<script>" } });
    expect(odd.body).toContain('<html lang="en">');
  });
});
