import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { refuseConnect } from "../http/client-errors.ts";
import { recordRoutes } from "../http/route-registry.ts";
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
): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger,
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

  app.addHook("onSend", async (_request, reply) => {
    reply.header("x-content-type-options", "nosniff");
    reply.header(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    );
    reply.header("referrer-policy", "no-referrer");
    reply.header("cache-control", "no-store");
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
