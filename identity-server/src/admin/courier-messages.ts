import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { messageJson, messageStatuses, type MessageStatus } from "../courier/message.ts";
import { answeringErrors } from "../http/send-error.ts";
import { isUuid } from "../http/uuid-param.ts";
import { badRequest, notFoundRow } from "../http/errors.ts";
import {
  findDispatches,
  findMessage,
  listMessages,
  type MessageCursor,
} from "../store/courier-messages.ts";

const defaultPageSize = 10;
const maxPageSize = 500;

// Page tokens are opaque to clients: the position (created_at, id) of the last message shown.
function encodeToken(cursor: MessageCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString("base64url");
}

function decodeToken(token: string): MessageCursor {
  const [createdAt = "", id = ""] = Buffer.from(token, "base64url").toString("utf8").split("|");
  if (!isUuid(id) || Number.isNaN(Date.parse(createdAt))) {
    throw badRequest("The page token is invalid.");
  }
  return { createdAt, id };
}

function parseStatus(value: string | undefined): MessageStatus | undefined {
  if (value === undefined) return undefined;
  if (!(messageStatuses as readonly string[]).includes(value)) {
    throw badRequest("Message status is not valid");
  }
  return value as MessageStatus;
}

/** GET /admin/courier/messages and /admin/courier/messages/{id}, shaped as Kratos' `message`. */
export function registerCourierMessageRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get(
    "/admin/courier/messages",
    answeringErrors(async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const pageSize = query.page_size === undefined ? defaultPageSize : Number(query.page_size);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxPageSize) {
        throw badRequest(`Items per page must be between 1 and ${maxPageSize}.`);
      }
      const status = parseStatus(query.status);
      const after = query.page_token ? decodeToken(query.page_token) : undefined;
      const page = await listMessages(
        ctx.db,
        { status, recipient: query.recipient || undefined },
        pageSize,
        after,
      );
      const dispatches = await findDispatches(
        ctx.db,
        page.messages.map((m) => m.id),
      );
      const base = new URLSearchParams({ page_size: String(pageSize) });
      if (query.status) base.set("status", query.status);
      if (query.recipient) base.set("recipient", query.recipient);
      const links = [`</admin/courier/messages?${base.toString()}>; rel="first"`];
      const last = page.messages[page.messages.length - 1];
      if (page.hasMore && last) {
        const next = new URLSearchParams(base);
        next.set(
          "page_token",
          encodeToken({ createdAt: last.createdAt.toISOString(), id: last.id }),
        );
        links.push(`</admin/courier/messages?${next.toString()}>; rel="next"`);
      }
      reply.header("link", links.join(","));
      return reply.send(page.messages.map((m) => messageJson(m, dispatches.get(m.id) ?? [])));
    }),
  );

  app.get(
    "/admin/courier/messages/:id",
    answeringErrors(async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!isUuid(id)) {
        throw badRequest(undefined, { message: `uuid: incorrect UUID format ${id}` });
      }
      const message = await findMessage(ctx.db, id.toLowerCase());
      if (!message) throw notFoundRow();
      const dispatches = await findDispatches(ctx.db, [message.id]);
      return reply.send(messageJson(message, dispatches.get(message.id) ?? []));
    }),
  );
}
