import { clientJson } from "../clients/client-document.ts";
import { findClient } from "../clients/client-store.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

/** The client as login, consent and logout requests embed it: Hydra's JSON without the secret. */
export async function clientView(db: OAuth2Db, clientId: string): Promise<Record<string, unknown>> {
  const stored = await findClient(db, clientId);
  return stored ? clientJson(stored.client) : { client_id: clientId };
}
