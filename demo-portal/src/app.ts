import Fastify, { type FastifyInstance } from "fastify";
import type { DemoConfig } from "./config.ts";
import { escapeHtml, page } from "./html.ts";
import { whoIsSignedIn, type SignedInPerson } from "./session.ts";

const agencies = ["Department of Examples", "Office of Demonstrations", "Bureau of Samples"];

function personDetails(person: SignedInPerson): string {
  return `<dl>
<dt>E-mail</dt><dd data-testid="signed-in-email">${escapeHtml(person.email)}</dd>
<dt>Identity</dt><dd>${escapeHtml(person.identityId)}</dd>
<dt>Signed in at</dt><dd>${escapeHtml(person.authenticatedAt)}</dd>
<dt>Assurance level</dt><dd>${escapeHtml(person.assuranceLevel)}</dd>
</dl>`;
}

function signOut(config: DemoConfig): string {
  return `<p><a href="${escapeHtml(`${config.portalUrl}/en/logout`)}">Sign out</a></p>`;
}

export function buildDemoPortal(config: DemoConfig): FastifyInstance {
  const app = Fastify({ logger: { level: config.logLevel } });

  const signIn = (path: string) =>
    `<p>You are not signed in.</p><p><a href="${escapeHtml(
      `${config.portalUrl}/login?return_to=${encodeURIComponent(`${config.publicUrl}${path}`)}`,
    )}">Sign in</a></p>`;

  app.get("/", async (request, reply) => {
    const person = await whoIsSignedIn(config.identityPublicUrl, request.headers.cookie);
    const body = person
      ? `<h1>Welcome back</h1>${personDetails(person)}<p><a href="/agency-selection">Choose another agency</a></p>${signOut(config)}`
      : `<h1>Agency product</h1>${signIn("/")}`;
    return reply.type("text/html; charset=utf-8").send(page("Home", body));
  });

  app.get("/agency-selection", async (request, reply) => {
    const person = await whoIsSignedIn(config.identityPublicUrl, request.headers.cookie);
    const body = person
      ? `<h1>Select your agency</h1>${personDetails(person)}<ul>${agencies
          .map((name) => `<li>${escapeHtml(name)}</li>`)
          .join("")}</ul>${signOut(config)}`
      : `<h1>Select your agency</h1>${signIn("/agency-selection")}`;
    return reply.type("text/html; charset=utf-8").send(page("Agency selection", body));
  });

  app.get("/health/alive", () => ({ status: "ok" }));
  return app;
}
