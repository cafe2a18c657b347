import { sql, type RawBuilder } from "kysely";

// A flow's WebAuthn challenges are single use: taking one removes it from the stored row in one
// statement. A request that read the flow before that (a slow wrong-password post) must not put
// the spent challenge back when it saves its copy of the flow, so a flow save writes a ceremony
// key only when this request issued a new challenge under it; otherwise the stored value (or its
// absence) stays as it is.

/** The internal-context keys holding ceremony challenges (Kratos' `<strategy>_session_data`). */
const ceremonyKeys = ["passkey_session_data", "webauthn_session_data"] as const;

export type CeremonyKey = (typeof ceremonyKeys)[number];

const issued = new WeakMap<object, Set<CeremonyKey>>();

/** Records that this request issued a new challenge under `key`: the next save writes it. */
export function markCeremonyIssued(flow: object, key: CeremonyKey): void {
  const keys = issued.get(flow) ?? new Set<CeremonyKey>();
  keys.add(key);
  issued.set(flow, keys);
}

/**
 * The SQL value of `internal_context` for a save of `flow` with the serialised `context`: the
 * ceremony keys this request did not issue anew are taken from the stored row. The marks are
 * cleared, so saving the same object again cannot restore a challenge taken in between.
 */
export function internalContextSql(flow: object, context: string): RawBuilder<string> {
  const fresh = issued.get(flow) ?? new Set<CeremonyKey>();
  issued.delete(flow);
  let value: RawBuilder<string> = sql<string>`json(${context})`;
  for (const key of ceremonyKeys) {
    if (fresh.has(key)) continue;
    const path = `$."${key}"`;
    value = sql<string>`(CASE WHEN json_type(internal_context, ${path}) IS NULL
      THEN json_remove(${value}, ${path})
      ELSE json_set(${value}, ${path}, json(json_extract(internal_context, ${path}))) END)`;
  }
  return value;
}
