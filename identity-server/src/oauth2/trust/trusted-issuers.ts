import { randomUUID } from "node:crypto";
import { importJWK, type JWK } from "jose";
import { badRequest, conflict, fositeError, notFound } from "../hydra-error.ts";
import type { OAuth2Db, OAuth2TrustedIssuersTable } from "../store/oauth2-tables.ts";
import { isoSeconds } from "../time.ts";

// Hydra's trust relationships for the jwt-bearer grant (oauth2/trust): an issuer, the subject it
// may assert (or any), the scopes it may grant and the public key its assertions are signed with.

/** Hydra's trustedOAuth2JwtGrantIssuer. */
export interface TrustedIssuer {
  id: string;
  issuer: string;
  subject: string;
  allow_any_subject: boolean;
  scope: string[];
  public_key: { set: string; kid: string };
  created_at: string;
  expires_at: string;
}

export interface TrustedKey {
  issuer: TrustedIssuer;
  jwk: JWK;
}

const privateParameters = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

function fromRow(row: OAuth2TrustedIssuersTable): TrustedIssuer {
  return {
    id: row.id,
    issuer: row.issuer,
    subject: row.subject,
    allow_any_subject: row.allow_any_subject === 1,
    scope: JSON.parse(row.scope) as string[],
    public_key: { set: row.issuer, kid: row.kid },
    created_at: isoSeconds(new Date(row.created_at)),
    expires_at: isoSeconds(new Date(row.expires_at)),
  };
}

const missing = (hint: string) => fositeError("missing_required_parameter", hint);

/** POST /admin/trust/grants/jwt-bearer/issuers: validates as Hydra does and stores the public key. */
export async function trustIssuer(db: OAuth2Db, body: unknown, now: Date): Promise<TrustedIssuer> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("Unable to decode the request body: the body must be a JSON object");
  }
  const input = body as Record<string, unknown>;
  const issuer = typeof input.issuer === "string" ? input.issuer : "";
  const subject = typeof input.subject === "string" ? input.subject : "";
  const anySubject = input.allow_any_subject === true;
  const scope = input.scope ?? [];
  if (!Array.isArray(scope) || !scope.every((s) => typeof s === "string")) {
    throw badRequest("Unable to decode the request body: scope must be an array of strings");
  }
  if (issuer === "") throw missing("Field 'issuer' is required.");
  if (subject === "" && !anySubject) {
    throw missing("One of 'subject' or 'allow_any_subject' field must be set.");
  }
  if (subject !== "" && anySubject) {
    throw missing("Both 'subject' and 'allow_any_subject' fields cannot be set at the same time.");
  }
  const expiresAt =
    typeof input.expires_at === "string" && !Number.isNaN(Date.parse(input.expires_at))
      ? new Date(input.expires_at)
      : undefined;
  if (!expiresAt) throw missing("Field 'expires_at' is required.");
  const jwk = input.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== "object" || typeof jwk.kid !== "string" || jwk.kid === "") {
    throw missing("Field 'jwk' must contain JWK with kid header.");
  }
  const publicJwk = Object.fromEntries(
    Object.entries(jwk).filter(([key]) => !privateParameters.includes(key)),
  ) as JWK;
  try {
    await importJWK(publicJwk, jwk.alg ?? (jwk.kty === "EC" ? "ES256" : "RS256"));
  } catch (error) {
    throw badRequest(`The JSON Web Key is not a usable public key: ${(error as Error).message}`);
  }
  const row: OAuth2TrustedIssuersTable = {
    id: randomUUID(),
    issuer,
    subject,
    allow_any_subject: anySubject ? 1 : 0,
    scope: JSON.stringify(scope),
    kid: jwk.kid,
    jwk: JSON.stringify(publicJwk),
    created_at: isoSeconds(now),
    expires_at: isoSeconds(expiresAt),
  };
  const result = await db
    .insertInto("oauth2_trusted_issuers")
    .values(row)
    .onConflict((oc) => oc.columns(["issuer", "subject", "kid"]).doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
    throw conflict("A trust relationship for this issuer, subject and key exists already.");
  }
  return fromRow(row);
}

export async function getTrustedIssuer(db: OAuth2Db, id: string): Promise<TrustedIssuer> {
  const row = await db
    .selectFrom("oauth2_trusted_issuers")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return fromRow(row);
}

export async function deleteTrustedIssuer(db: OAuth2Db, id: string): Promise<void> {
  const result = await db
    .deleteFrom("oauth2_trusted_issuers")
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound();
}

export async function listTrustedIssuers(
  db: OAuth2Db,
  options: { issuer?: string; pageSize: number; after?: string },
): Promise<{ issuers: TrustedIssuer[]; nextAfter: string | undefined }> {
  let query = db
    .selectFrom("oauth2_trusted_issuers")
    .selectAll()
    .orderBy("id")
    .limit(options.pageSize + 1);
  if (options.issuer) query = query.where("issuer", "=", options.issuer);
  if (options.after !== undefined) query = query.where("id", ">", options.after);
  const rows = await query.execute();
  const issuers = rows.slice(0, options.pageSize).map(fromRow);
  return {
    issuers,
    nextAfter: rows.length > options.pageSize ? issuers.at(-1)?.id : undefined,
  };
}

/** The unexpired trust relationships that cover an assertion's issuer, subject and key id. */
export async function findTrustedKeys(
  db: OAuth2Db,
  assertion: { issuer: string; subject: string; kid: string },
  now: Date,
): Promise<TrustedKey[]> {
  const rows = await db
    .selectFrom("oauth2_trusted_issuers")
    .selectAll()
    .where("issuer", "=", assertion.issuer)
    .where("kid", "=", assertion.kid)
    .where((eb) => eb.or([eb("subject", "=", assertion.subject), eb("allow_any_subject", "=", 1)]))
    .execute();
  return rows
    .filter((row) => new Date(row.expires_at) > now)
    .map((row) => ({ issuer: fromRow(row), jwk: JSON.parse(row.jwk) as JWK }));
}
