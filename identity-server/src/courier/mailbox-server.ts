import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { refuseConnect } from "../http/client-errors.ts";
import { fastifyListenerOptions, type ListenerLimits } from "../http/listener-limits.ts";
import { redactingLogger } from "../http/log-redaction.ts";
import { recordRoutes } from "../http/route-registry.ts";
import { baseSecurityHeaders } from "../http/security-headers.ts";
import { normalizeAddress } from "../identity/normalize.ts";
import { listMessages } from "../store/courier-messages.ts";
import type { Database } from "../store/schema.ts";
import { mailboxJson, mailboxPage } from "./mailbox-page.ts";

const shownMessages = 200;

function recipientFilter(query: unknown): string {
  const to = (query as Record<string, unknown> | undefined)?.to;
  if (typeof to !== "string" || to.trim() === "") return "";
  return normalizeAddress(to, to.includes("@") ? "email" : "sms");
}

/**
 * The local mailbox (embedded default, loopback only): `/` is the page, `/messages.json?to=` the
 * same list as JSON. It reads the courier's table, so it shows every queued and sent message.
 */
export function createMailboxServer(
  db: Kysely<Database>,
  logger: FastifyBaseLogger,
  limits: ListenerLimits,
): FastifyInstance {
  const app = Fastify({
    loggerInstance: redactingLogger(logger),
    ...fastifyListenerOptions(limits),
    logController: new LogController({ disableRequestLogging: true }),
  });
  recordRoutes(app);
  refuseConnect(app.server, (status) => ({
    statusCode: status,
    error: "Method Not Allowed",
    message: "The method CONNECT is not supported.",
  }));
  const load = (to: string) =>
    listMessages(db, { recipient: to || undefined }, shownMessages, undefined);

  // The page shows every code and link sent: never cached, framed or given powerful features.
  app.addHook("onSend", async (_request, reply) => {
    reply.headers(baseSecurityHeaders);
    reply.header(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    reply.header("referrer-policy", "no-referrer");
  });

  app.get("/", async (request, reply) => {
    const to = recipientFilter(request.query);
    const { messages } = await load(to);
    return reply.type("text/html; charset=utf-8").send(mailboxPage(messages, to));
  });

  app.get("/messages.json", async (request, reply) => {
    const { messages } = await load(recipientFilter(request.query));
    return reply.send(mailboxJson(messages));
  });

  return app;
}
