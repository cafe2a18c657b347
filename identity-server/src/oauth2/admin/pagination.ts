import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest } from "../hydra-error.ts";

// Hydra's keyset pagination: `page_size` and an opaque `page_token`; the next page is announced in
// a Link header (rel="first" and, when there is more, rel="next").

const defaultPageSize = 250;
const maxPageSize = 1000;

export interface PageRequest {
  pageSize: number;
  after: string | undefined;
}

export function readPage(query: Record<string, unknown>): PageRequest {
  const rawSize = query.page_size;
  let pageSize = defaultPageSize;
  if (typeof rawSize === "string" && rawSize !== "") {
    const size = Number(rawSize);
    if (!Number.isInteger(size) || size < 1) {
      throw badRequest(
        "Unable to parse pagination parameters: page_size must be a positive integer",
      );
    }
    pageSize = Math.min(size, maxPageSize);
  }
  const token = query.page_token;
  if (typeof token !== "string" || token === "") return { pageSize, after: undefined };
  try {
    const decoded = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as {
      after?: unknown;
    };
    if (typeof decoded.after !== "string") throw new Error("no position");
    return { pageSize, after: decoded.after };
  } catch {
    throw badRequest("Unable to parse pagination parameters: the page_token is invalid");
  }
}

function pageToken(after: string): string {
  return Buffer.from(JSON.stringify({ after }), "utf8").toString("base64url");
}

/** Sets the Link header for the page that was just read. */
export function setLinkHeader(
  request: FastifyRequest,
  reply: FastifyReply,
  page: PageRequest,
  nextAfter: string | undefined,
): void {
  const url = new URL(request.url, "http://admin.invalid");
  const link = (token: string | undefined) => {
    const target = new URL(url);
    target.searchParams.set("page_size", String(page.pageSize));
    if (token) target.searchParams.set("page_token", token);
    else target.searchParams.delete("page_token");
    return `<${target.pathname}${target.search}>`;
  };
  const links = [`${link(undefined)}; rel="first"`];
  if (nextAfter !== undefined) links.push(`${link(pageToken(nextAfter))}; rel="next"`);
  reply.header("link", links.join(","));
}
