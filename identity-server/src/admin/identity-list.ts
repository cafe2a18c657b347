import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isUuid } from "../http/uuid-param.ts";
import { badRequest } from "../http/errors.ts";
import { keysetLinkHeader, offsetPageHeaders } from "../http/pagination.ts";
import { identityJson } from "../identity/identity.ts";
import { normalizeEmail } from "../identity/normalize.ts";
import {
  countIdentities,
  listIdentities,
  type IdentityListFilter,
  type IdentityPaging,
} from "../store/identities.ts";
import { credentialTypes } from "./identity-changes.ts";

type Query = Record<string, string | string[] | undefined>;

function all(query: Query, key: string): string[] {
  const value = query[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function first(query: Query, key: string): string {
  return all(query, key)[0] ?? "";
}

// Kratos' first identity page starts after the nil UUID; page sizes default to 250, at most 500.
const nilUuid = "00000000-0000-0000-0000-000000000000";
const defaultPageSize = 250;
const maxPageSize = 500;
const legacyPagingLimit = 1000;

/** Go's strconv.Atoi error, which Kratos puts in the reason of a bad `page_size`. */
function atoi(value: string): number {
  if (!/^[+-]?[0-9]+$/.test(value)) {
    throw badRequest(`strconv.Atoi: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  return Number(value);
}

function goInt(value: string, fallback: number): number {
  return /^[+-]?[0-9]+$/.test(value) ? Number(value) : fallback;
}

/** Kratos' ParseKeysetOrPagePagination for identities. */
function parsePaging(query: Query): IdentityPaging {
  const has = (key: string) => query[key] !== undefined;
  if (!has("page_token") && !has("page_size") && has("page")) {
    // The legacy page/per_page pair (pagepagination.PagePaginator{MaxItems: 500}).
    const page = Math.max(0, goInt(first(query, "page"), 0));
    const perPageRaw = first(query, "per_page");
    const perPage = Math.min(
      maxPageSize,
      Math.max(1, perPageRaw === "" ? defaultPageSize : goInt(perPageRaw, defaultPageSize)),
    );
    if (page * perPage > legacyPagingLimit) {
      throw badRequest(
        `Legacy pagination is not supported for enumerating over ${legacyPagingLimit} items. Please switch to using page_token and page_size.`,
      );
    }
    return { kind: "offset", offset: page * perPage, limit: perPage };
  }
  // per_page alone is taken as page_size.
  const sizeRaw = first(query, "page_size") || (has("page_size") ? "" : first(query, "per_page"));
  const size = sizeRaw === "" ? 0 : atoi(sizeRaw);
  const token = first(query, "page_token") || nilUuid;
  if (!isUuid(token))
    throw badRequest("The page token is invalid, do not craft your own page tokens");
  return {
    kind: "keyset",
    after: token.toLowerCase(),
    size: size <= 0 ? defaultPageSize : Math.min(size, maxPageSize),
  };
}

/** Kratos' parseListIdentitiesParameters: filters (one at a time), credentials to include. */
function parseFilter(query: Query): { filter: IdentityListFilter; include: string[] } {
  const filter: IdentityListFilter = {};
  let filters = 0;
  const ids = all(query, "ids");
  if (ids.length > 0) {
    filters++;
    for (const id of ids) {
      if (!isUuid(id)) throw badRequest(`Invalid UUID value \`${id}\` for parameter \`ids\`.`);
    }
    if (ids.length > 500) throw badRequest("The number of ids to filter must not exceed 500.");
    filter.ids = ids.map((id) => id.toLowerCase());
  }
  const organization = first(query, "organization_id");
  if (organization !== "") {
    filters++;
    if (!isUuid(organization)) {
      throw badRequest(`Invalid UUID value \`${organization}\` for parameter \`organization_id\`.`);
    }
    filter.organizationId = organization.toLowerCase();
  }
  const exact = first(query, "credentials_identifier");
  if (exact !== "") {
    filters++;
    filter.identifier = { value: exact, similar: false };
  }
  const similar = first(query, "preview_credentials_identifier_similar");
  if (similar !== "") {
    filters++;
    filter.identifier = { value: similar, similar: true };
  }
  const include = all(query, "include_credential");
  for (const value of include) {
    if (!credentialTypes.has(value)) {
      throw badRequest(`Invalid value \`${value}\` for parameter \`include_credential\`.`);
    }
  }
  if (filters > 1) throw badRequest("You cannot combine multiple filters in this API");
  return { filter, include };
}

/**
 * GET /admin/identities as Kratos answers it: identities ordered by id, keyset pages (`Link` with
 * `first` and `next`) or legacy `page`/`per_page` pages (`Link` and `X-Total-Count`). Credentials
 * are only shown when asked for (`include_credential`) or searched (`credentials_identifier`).
 */
export async function sendIdentityList(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const query = request.query as Query;
  const { filter, include } = parseFilter(query);
  const paging = parsePaging(query);
  const page = await listIdentities(ctx.db, filter, paging, normalizeEmail);
  if (paging.kind === "offset") {
    // Kratos counts every identity, except for an exact identifier search.
    const total =
      filter.identifier?.similar === false ? page.identities.length : await countIdentities(ctx.db);
    const headers = offsetPageHeaders(
      request.url,
      total,
      { page: paging.offset / paging.limit, perPage: paging.limit },
      "page",
    );
    reply.header("link", headers.link).header("x-total-count", headers.totalCount);
  } else {
    const last = page.identities[page.identities.length - 1];
    reply.header(
      "link",
      keysetLinkHeader(request.url, paging.size, nilUuid, page.hasMore ? last?.id : undefined),
    );
  }
  const withCredentials = include.length > 0 || filter.identifier !== undefined;
  return reply.send(
    page.identities.map((identity) =>
      identityJson(identity, {
        publicBaseUrl: ctx.config.publicBaseUrl,
        admin: { includeConfigFor: include, withoutCredentials: !withCredentials },
      }),
    ),
  );
}
