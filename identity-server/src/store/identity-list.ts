import { sql } from "kysely";
import type { Identity } from "../identity/identity.ts";
import { hydrate } from "./identity-reads.ts";
import type { Executor } from "./schema.ts";

// The admin API's identity list: Kratos' filters and paging.

/** Kratos' list filters; at most one is set (the handler refuses combinations). */
export interface IdentityListFilter {
  ids?: string[] | undefined;
  /** A credential identifier, exact or (similar) as a prefix. */
  identifier?: { value: string; similar: boolean } | undefined;
  /** Identities of an organisation; this server has none, so the filter matches nothing. */
  organizationId?: string | undefined;
}

/** Keyset paging after an id (Kratos' identity page token), or legacy offset paging. */
export type IdentityPaging =
  | { kind: "keyset"; after: string; size: number }
  | { kind: "offset"; offset: number; limit: number };

// Kratos compares identifiers of these types normalised (like the password identifier) and those
// of social sign-in as given (persister_identity.go ListIdentities).
const normalisedIdentifierTypes = ["password", "code", "webauthn", "passkey"];
const rawIdentifierTypes = ["oidc", "saml"];

function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of identities ordered by id, with whether more follow (keyset paging). */
export async function listIdentities(
  db: Executor,
  filter: IdentityListFilter,
  paging: IdentityPaging,
  normalise: (identifier: string) => string,
): Promise<{ identities: Identity[]; hasMore: boolean }> {
  if (filter.organizationId !== undefined) return { identities: [], hasMore: false };
  let query = db.selectFrom("identities").select("id").orderBy("id");
  if (filter.ids) query = query.where("id", "in", filter.ids.length > 0 ? filter.ids : [""]);
  const identifier = filter.identifier;
  if (identifier) {
    const normalised = normalise(identifier.value);
    query = query.where("id", "in", (eb) =>
      eb
        .selectFrom("identity_credential_identifiers")
        .select("identity_id")
        .where((w) =>
          identifier.similar
            ? w.or([
                w.and([
                  w("type", "in", normalisedIdentifierTypes),
                  w(
                    sql<string>`identifier`,
                    "like",
                    sql<string>`${likePrefix(normalised)} escape '\\'`,
                  ),
                ]),
                w.and([
                  w("type", "in", rawIdentifierTypes),
                  w(
                    sql<string>`identifier`,
                    "like",
                    sql<string>`${likePrefix(identifier.value)} escape '\\'`,
                  ),
                ]),
              ])
            : w.or([
                w.and([
                  w("type", "in", normalisedIdentifierTypes),
                  w("identifier", "=", normalised),
                ]),
                w.and([
                  w("type", "in", rawIdentifierTypes),
                  w("identifier", "=", identifier.value),
                ]),
              ]),
        ),
    );
  }
  if (paging.kind === "keyset") {
    const rows = await query
      .where("id", ">", paging.after)
      .limit(paging.size + 1)
      .execute();
    const ids = rows.map((row) => row.id);
    return {
      identities: await hydrate(db, ids.slice(0, paging.size)),
      hasMore: ids.length > paging.size,
    };
  }
  const rows = await query.limit(paging.limit).offset(paging.offset).execute();
  return {
    identities: await hydrate(
      db,
      rows.map((row) => row.id),
    ),
    hasMore: false,
  };
}
