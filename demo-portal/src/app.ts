import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type FastifyLoggerOptions } from "fastify";
import { registerAuthRoutes, sessionCookie } from "./auth-routes.ts";
import type { DemoConfig } from "./config.ts";
import { escapeHtml, page } from "./html.ts";
import { fastifyListenerOptions } from "./listener-limits.ts";
import { createOidcClient, type OidcClient } from "./oidc-client.ts";
import { redactedRequest } from "./log-redaction.ts";
import { personDetails, problemPage, signInLink, signOutForm } from "./pages.ts";
import { defaultReturnPath } from "./return-path.ts";
import { registerSecurityHeaders } from "./security-headers.ts";
import { SessionStore } from "./session-store.ts";
import { signOutToken } from "./sign-out-token.ts";

const agencies = ["Department of Examples", "Office of Demonstrations", "Bureau of Samples"];

export function buildDemoPortal(
  config: DemoConfig,
  client: OidcClient = createOidcClient(config.oidc),
  /** Where the log goes (stdout unless given; tests read it). */
  logStream?: FastifyLoggerOptions["stream"],
): FastifyInstance {
  const app = Fastify({
    // Slow requests and idle keep-alive connections (DEMO_HTTP_*).
    ...fastifyListenerOptions(config.listener),
    // The callback's query holds the authorization code and state: logged URLs are redacted.
    logger: {
      level: config.logLevel,
      serializers: { req: redactedRequest },
      ...(logStream ? { stream: logStream } : {}),
    },
  });
  registerSecurityHeaders(app, config);
  void app.register(fastifyCookie);
  // The sign-out form is a plain HTML form (works without JavaScript); one flat string map is all
  // it sends, so URLSearchParams is enough and no body-parser plugin is needed.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // Whatever else goes wrong still answers with a page a person can read, not Fastify's JSON.
  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, "request failed");
    return reply
      .code(status)
      .type("text/html; charset=utf-8")
      .send(
        problemPage(
          "Something went wrong",
          "The agency product could not answer this request.",
          "/",
        ),
      );
  });

  const sessions = new SessionStore();
  const auth = registerAuthRoutes(app, config, client, sessions);
  const html = "text/html; charset=utf-8";
  const portalLink = `<p><a href="${escapeHtml(`${config.portalUrl}/`)}">Go to the sign-in portal</a></p>`;

  app.get("/", (request, reply) => {
    const sessionId = request.cookies[sessionCookie];
    const session = sessions.get(sessionId);
    if (!session || !sessionId) {
      const notice = auth.cameBackFromSignOut(request, reply)
        ? `<p role="status">You have signed out.</p>`
        : "";
      return reply
        .type(html)
        .send(
          page(
            "Home",
            `<h1>Agency product</h1>${notice}<p>You are not signed in.</p>${signInLink()}${portalLink}`,
          ),
        );
    }
    return reply.type(html).send(
      page(
        "Home",
        `<h1>Welcome back</h1>${personDetails(session)}
<p><a href="${defaultReturnPath}">Choose an agency</a></p>
${signOutForm(signOutToken(config.cookieSecret, sessionId))}`,
      ),
    );
  });

  app.get("/agency-selection", (request, reply) => {
    const sessionId = request.cookies[sessionCookie];
    const session = sessions.get(sessionId);
    // No automatic sign-in: a person coming here from the portal without an OAuth2 login would be
    // asked for their password again at once (Kratos forces re-authentication for OAuth2 logins
    // it cannot skip), so they get to choose.
    if (!session || !sessionId) {
      return reply
        .type(html)
        .send(
          page(
            "Agency selection",
            `<h1>Select your agency</h1><p>You are not signed in.</p>${signInLink(defaultReturnPath)}`,
          ),
        );
    }
    return reply.type(html).send(
      page(
        "Agency selection",
        `<h1>Select your agency</h1>${personDetails(session)}<ul>${agencies
          .map((name) => `<li>${escapeHtml(name)}</li>`)
          .join("")}</ul>
${signOutForm(signOutToken(config.cookieSecret, sessionId))}`,
      ),
    );
  });

  app.get("/health/alive", () => ({ status: "ok" }));
  return app;
}
