import { badRequest } from "./errors.ts";

// The two pagination styles Kratos uses for sessions (ory/x pagination): offset pages behind
// `page`/`per_page` or `page_token`/`page_size` ("migration pagination", GET /sessions and
// identity sessions), and keyset pages behind an opaque `page_token` (admin GET /admin/sessions).

type Query = Record<string, string | string[] | undefined>;

function first(query: Query, key: string): string | undefined {
  const value = query[key];
  return Array.isArray(value) ? value[0] : value;
}

const defaultItems = 250;
const maxItems = 1000;

function clampItems(raw: string | undefined): number {
  const parsed = raw === undefined ? Number.NaN : Number.parseInt(raw, 10);
  const items = Number.isNaN(parsed) ? defaultItems : parsed;
  return Math.min(maxItems, Math.max(1, items));
}

/** `{"offset":"<n>","v":2}` in unpadded base64url, ory/x's page token for offsets. */
export function encodeOffsetToken(offset: number): string {
  return Buffer.from(`{"offset":"${offset}","v":2}`).toString("base64url");
}

function decodeOffsetToken(token: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as {
      offset?: unknown;
    };
    const raw = parsed.offset;
    const offset = typeof raw === "string" || typeof raw === "number" ? Number(raw) : 0;
    return Number.isInteger(offset) && offset > 0 ? offset : 0;
  } catch {
    return 0;
  }
}

export interface OffsetPage {
  page: number;
  perPage: number;
}

/**
 * ory/x migrationpagination.ParsePagination: `page_token`/`page_size` when either is present,
 * otherwise `page`/`per_page`; 250 items by default, at most 1000, unreadable values ignored.
 */
export function parseOffsetPage(query: Query): OffsetPage {
  if (first(query, "page_token") !== undefined || first(query, "page_size") !== undefined) {
    const perPage = clampItems(first(query, "page_size"));
    const offset = decodeOffsetToken(first(query, "page_token") ?? "");
    return { page: Math.max(0, Math.floor(offset / perPage)), perPage };
  }
  const page = Number.parseInt(first(query, "page") ?? "0", 10);
  return {
    page: Number.isNaN(page) || page < 0 ? 0 : page,
    perPage: clampItems(first(query, "per_page")),
  };
}

/**
 * How a link names a page: migration pagination sets page_size/page_token and the legacy
 * per_page/page; Kratos' identity list (pagepagination) only the legacy pair.
 */
export type OffsetLinkStyle = "migration" | "page";

/** `<path?query>; rel="…"` with the page parameters set (query keys sorted, as Go encodes them). */
function linkFor(
  requestUrl: string,
  rel: string,
  perPage: number,
  offset: number,
  style: OffsetLinkStyle,
): string {
  const url = new URL(requestUrl, "http://local");
  if (style === "migration") {
    url.searchParams.set("page_size", String(perPage));
    url.searchParams.set("page_token", encodeOffsetToken(offset));
  }
  url.searchParams.set("per_page", String(perPage));
  url.searchParams.set("page", String(Math.floor(offset / perPage)));
  url.searchParams.sort();
  return `<${url.pathname}?${url.searchParams.toString()}>; rel="${rel}"`;
}

/**
 * ory/x pagination.HeaderWithFormatter for migration pagination: the `Link` header (first, next,
 * prev, last as they exist) and `X-Total-Count`, relative to the request URL.
 */
export function offsetPageHeaders(
  requestUrl: string,
  total: number,
  { page, perPage }: OffsetPage,
  style: OffsetLinkStyle = "migration",
): { link: string; totalCount: string } {
  const link = (url: string, rel: string, items: number, offset: number) =>
    linkFor(url, rel, items, offset, style);
  const offset = page * perPage;
  const lastOffset =
    total % perPage === 0 ? total - perPage : Math.floor(total / perPage) * perPage;
  const totalCount = String(total);
  const join = (...parts: string[]) => ({ link: parts.join(","), totalCount });
  if (offset >= lastOffset) {
    if (total === 0) {
      return join(
        link(requestUrl, "first", perPage, 0),
        link(requestUrl, "next", perPage, (page + 1) * perPage),
        link(requestUrl, "prev", perPage, (page - 1) * perPage),
      );
    }
    if (total <= perPage) return join(link(requestUrl, "first", total, 0));
    return join(
      link(requestUrl, "first", perPage, 0),
      link(requestUrl, "prev", perPage, lastOffset - perPage),
    );
  }
  if (offset < perPage) {
    return join(
      link(requestUrl, "next", perPage, perPage),
      link(requestUrl, "last", perPage, lastOffset),
    );
  }
  return join(
    link(requestUrl, "first", perPage, 0),
    link(requestUrl, "next", perPage, (page + 1) * perPage),
    link(requestUrl, "prev", perPage, (page - 1) * perPage),
    link(requestUrl, "last", perPage, lastOffset),
  );
}

/** Where a keyset page continues: the (created_at, id) of the last item shown. */
export interface KeysetCursor {
  createdAt: string;
  id: string;
}

/** ory/x MapPageToken: `key=value` pairs joined by "/", in unpadded standard base64. */
export function encodeKeysetToken(cursor: KeysetCursor): string {
  return Buffer.from(`created_at=${cursor.createdAt}/id=${cursor.id}`)
    .toString("base64")
    .replace(/=+$/, "");
}

const pageTokenInvalid = () =>
  badRequest("The page token is invalid, do not craft your own page tokens");

export function decodeKeysetToken(token: string): KeysetCursor {
  const text = Buffer.from(token, "base64").toString("utf8");
  const fields = new Map(
    text.split("/").map((part): [string, string] => {
      const eq = part.indexOf("=");
      return eq === -1 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    }),
  );
  const id = fields.get("id") ?? "";
  const createdAt = fields.get("created_at") ?? "";
  if (!/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(Date.parse(createdAt))) throw pageTokenInvalid();
  return { createdAt, id: id.toLowerCase() };
}

/** Kratos' first page: a cursor after everything (nil id, a creation time in 2200). */
const firstKeysetCursor: KeysetCursor = {
  createdAt: "2200-12-31T23:59:59.000Z",
  id: "00000000-0000-0000-0000-000000000000",
};

/** `page_size` of a keyset list: 250 by default, at most 1000; not a number is 400. */
export function parseKeysetPageSize(query: Query): number {
  const raw = first(query, "page_size");
  if (raw === undefined || raw === "") return defaultItems;
  const size = Number(raw);
  if (!Number.isInteger(size))
    throw badRequest(undefined, { message: "could not parse parameter page_size" });
  return size <= 0 ? defaultItems : Math.min(size, maxItems);
}

/** keysetpagination.Header with ready-made tokens: `first`, and `next` when there are more items. */
export function keysetLinkHeader(
  requestUrl: string,
  pageSize: number,
  firstToken: string,
  nextToken: string | undefined,
): string {
  const make = (rel: string, token: string) => {
    const url = new URL(requestUrl, "http://local");
    url.searchParams.set("page_token", token);
    url.searchParams.set("page_size", String(pageSize));
    url.searchParams.sort();
    return `<${url.pathname}?${url.searchParams.toString()}>; rel="${rel}"`;
  };
  const links = [make("first", firstToken)];
  if (nextToken !== undefined) links.push(make("next", nextToken));
  return links.join(",");
}

/** keysetpagination.Header for the (created_at, id) cursors of the admin session list. */
export function keysetLinks(
  requestUrl: string,
  pageSize: number,
  next: KeysetCursor | undefined,
): string {
  return keysetLinkHeader(
    requestUrl,
    pageSize,
    encodeKeysetToken(firstKeysetCursor),
    next ? encodeKeysetToken(next) : undefined,
  );
}
