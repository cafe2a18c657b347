import { sql } from "kysely";
import type { Flow } from "../../selfservice/flow.ts";
import { markCeremonyIssued, type CeremonyKey } from "../../store/flow-ceremonies.ts";
import type { Executor } from "../../store/schema.ts";
import { WebAuthnRefused } from "./webauthn-refused.ts";

/**
 * What a ceremony's options promised, kept in the flow's internal context (never serialised to
 * clients) until the answer comes back: Kratos' `webauthn.SessionData` under
 * `<strategy>_session_data`.
 */
export interface CeremonySession {
  /** The base64url challenge of the options. */
  challenge: string;
  /** The flow the challenge was issued for: an answer is only accepted by that flow. */
  flow_id: string;
  /** Registration: the base64url user handle the options carried. */
  user_handle?: string | undefined;
}

/** The internal-context key of a strategy's ceremony, e.g. `passkey_session_data`. */
export function ceremonyKey(strategy: "passkey" | "webauthn"): CeremonyKey {
  return `${strategy}_session_data`;
}

/**
 * Keeps the challenge of options just shown; a newer one replaces it. Only a flow save after this
 * writes the key (a save of a flow read earlier keeps the stored challenge, or its absence).
 */
export function storeCeremony(
  flow: Flow,
  key: CeremonyKey,
  session: Omit<CeremonySession, "flow_id">,
) {
  flow.internalContext[key] = { ...session, flow_id: flow.id } satisfies CeremonySession;
  markCeremonyIssued(flow, key);
}

function isCeremonySession(value: unknown): value is CeremonySession {
  const v = value as Partial<CeremonySession> | undefined;
  return typeof v?.challenge === "string" && typeof v.flow_id === "string";
}

/**
 * Takes the flow's challenge for verification, once: it is removed from the stored flow in one
 * conditional statement, so two submissions racing with the same answer cannot both get it, and
 * it is gone whether the verification then succeeds or fails (a refused answer cannot be retried
 * against the same challenge; the strategy shows new options). A flow without a challenge, or
 * one issued for another flow, is refused.
 */
export async function consumeCeremony(
  db: Executor,
  flow: Flow,
  key: CeremonyKey,
): Promise<CeremonySession> {
  const session = flow.internalContext[key];
  delete flow.internalContext[key];
  if (!isCeremonySession(session)) throw new WebAuthnRefused("no challenge was issued");
  if (session.flow_id !== flow.id) throw new WebAuthnRefused("the challenge is for another flow");
  const path = `$."${key}"`;
  const result = await db
    .updateTable("selfservice_flows")
    .set({ internal_context: sql<string>`json_remove(internal_context, ${path})` })
    .where("id", "=", flow.id)
    .where(
      sql<string>`json_extract(internal_context, ${`${path}.challenge`})`,
      "=",
      session.challenge,
    )
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) throw new WebAuthnRefused("the challenge was already used");
  return session;
}
