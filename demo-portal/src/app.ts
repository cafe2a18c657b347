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
import { viewOf, type Words } from "./view.ts";

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
  const portalLink = (w: Words) =>
    `<p><a href="${escapeHtml(`${config.portalUrl}/`)}">${escapeHtml(w.toPortal)}</a></p>`;

  app.get("/", (request, reply) => {
    const view = viewOf(request, reply);
    const w = view.words;
    const sessionId = request.cookies[sessionCookie];
    const session = sessions.get(sessionId);
    if (!session || !sessionId) {
      const notice = auth.cameBackFromSignOut(request, reply)
        ? `<p role="status">${escapeHtml(w.signedOut)}</p>`
        : "";
      return reply
        .type(html)
        .send(
          page(
            w.home,
            `<h1>${escapeHtml(w.welcomeTitle)}</h1><p class="lead">${escapeHtml(w.welcomeBody)}</p>${notice}<p>${escapeHtml(w.notSignedIn)}</p>${signInLink(undefined, w)}${portalLink(w)}`,
            view,
          ),
        );
    }
    return reply.type(html).send(
      page(
        w.home,
        `<h1>${escapeHtml(w.welcomeBack)}</h1>${personDetails(session, w)}
<p><a href="${defaultReturnPath}">${escapeHtml(w.chooseAgency)}</a></p>
${signOutForm(signOutToken(config.cookieSecret, sessionId), w)}`,
        view,
      ),
    );
  });

  app.get("/agency-selection", (request, reply) => {
    const view = viewOf(request, reply);
    const w = view.words;
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
            w.agencySelection,
            `<h1>${escapeHtml(w.selectAgency)}</h1><p>${escapeHtml(w.notSignedIn)}</p>${signInLink(defaultReturnPath, w)}`,
            view,
          ),
        );
    }
    return reply.type(html).send(
      page(
        w.agencySelection,
        `<h1>${escapeHtml(w.selectAgency)}</h1>${personDetails(session, w)}<ul>${agencies
          .map((name) => `<li>${escapeHtml(name)}</li>`)
          .join("")}</ul>
${signOutForm(signOutToken(config.cookieSecret, sessionId), w)}`,
        view,
      ),
    );
  });

  app.get("/health/alive", () => ({ status: "ok" }));
  return app;
}
