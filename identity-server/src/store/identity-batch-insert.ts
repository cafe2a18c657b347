import { sql, type Kysely } from "kysely";
import type { Identity } from "../identity/identity.ts";
import { DuplicateIdentityError, insertIdentity } from "./identity-writes.ts";
import type { Database } from "./schema.ts";

// Identities per transaction: each commit appends to the WAL (and waits for a disk flush with
// IDENTITY_SQLITE_SYNCHRONOUS=full), so one commit per identity made a 100,000-identity import
// take minutes; a transaction holds the store's only connection, so it is kept short enough (a
// few tens of ms) not to stall requests.
const perTransaction = 100;

/**
 * Inserts identities a transaction per `perTransaction`, each in its own savepoint: one whose
 * identifier or address clashes (with a stored identity or an earlier one of the batch) is rolled
 * back alone and reported as its DuplicateIdentityError; the result has one entry per identity,
 * undefined when it was inserted. Any other error fails its transaction (and the rest).
 */
export async function insertIdentities(
  db: Kysely<Database>,
  identities: Identity[],
): Promise<(DuplicateIdentityError | undefined)[]> {
  const outcomes: (DuplicateIdentityError | undefined)[] = [];
  for (let start = 0; start < identities.length; start += perTransaction) {
    const chunk = identities.slice(start, start + perTransaction);
    outcomes.push(
      ...(await db.transaction().execute(async (trx) => {
        const chunkOutcomes: (DuplicateIdentityError | undefined)[] = [];
        for (const identity of chunk) {
          await sql`savepoint insert_identity`.execute(trx);
          try {
            await insertIdentity(trx, identity);
            chunkOutcomes.push(undefined);
          } catch (error) {
            await sql`rollback to insert_identity`.execute(trx);
            if (!(error instanceof DuplicateIdentityError)) throw error;
            chunkOutcomes.push(error);
          }
          await sql`release insert_identity`.execute(trx);
        }
        return chunkOutcomes;
      })),
    );
  }
  return outcomes;
}
