import { readFileSync } from "node:fs";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";

// A whoami endpoint answering with a real Kratos session document for one cookie, and 401 otherwise,
// stands in for the identity service: the demo's contract with it is exactly this endpoint.
const session: unknown = JSON.parse(
  readFileSync(
    new URL(
      "../../vendor/ory/flows/kratos.fixture.session.aal2-password-totp.json",
      import.meta.url,
    ),
    "utf8",
  ),
);

let identity: FastifyInstance;
let demo: FastifyInstance;

beforeAll(async () => {
  identity = Fastify();
  identity.get("/sessions/whoami", (request, reply) =>
    request.headers.cookie === "ory_kratos_session=valid"
      ? reply.send(session)
      : reply.code(401).send({ error: { code: 401, status: "Unauthorized" } }),
  );
  const identityUrl = await identity.listen({ host: "127.0.0.1", port: 0 });
  demo = buildDemoPortal(
    loadDemoConfig({
      KRATOS_PUBLIC_URL: identityUrl,
      PORTAL_PUBLIC_URL: "http://localhost:3000",
      DEMO_PUBLIC_URL: "http://localhost:4000",
      LOG_LEVEL: "silent",
    }),
  );
});

afterAll(async () => {
  await demo.close();
  await identity.close();
});

describe("demo portal", () => {
  it("shows the signed-in person's e-mail and a sign-out link on agency selection", async () => {
    const response = await demo.inject({
      url: "/agency-selection",
      headers: { cookie: "ory_kratos_session=valid" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("<h1>Select your agency</h1>");
    expect(response.body).toContain('data-testid="signed-in-email">bazbar@ory.sh<');
    expect(response.body).toContain('href="http://localhost:3000/en/logout"');
  });

  it("offers sign-in through the portal, returning here, when nobody is signed in", async () => {
    const response = await demo.inject({ url: "/agency-selection" });
    expect(response.body).toContain("You are not signed in.");
    expect(response.body).toContain(
      'href="http://localhost:3000/login?return_to=http%3A%2F%2Flocalhost%3A4000%2Fagency-selection"',
    );
  });

  it("treats a rejected session cookie as signed out", async () => {
    const response = await demo.inject({ url: "/", headers: { cookie: "ory_kratos_session=old" } });
    expect(response.body).toContain("You are not signed in.");
  });

  it("names the bad variable when configuration is wrong", () => {
    expect(() => loadDemoConfig({ DEMO_PORT: "eighty" })).toThrow(/DEMO_PORT/);
  });
});
