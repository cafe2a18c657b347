import { randomId } from "../crypto/random.ts";
import { resourceNotFound } from "../hydra-error.ts";
import type { OAuth2Db, OAuth2LogoutRequestsTable } from "../store/oauth2-tables.ts";
import { addMs, isoSeconds } from "../time.ts";
import type { ChallengeDeps } from "./challenge-deps.ts";
import { newSecret, secretHash } from "./challenge-verifiers.ts";
import { clientView } from "./client-view.ts";
import { UsedChallengeError } from "./interactions.ts";
import type { RedirectTo } from "./login-requests.ts";

// RP-initiated logout: oidc-provider validates the request (id_token_hint, registered
// post_logout_redirect_uri) and stores an xsrf secret in the browser session; instead of rendering
// its own confirmation page it hands over here, and the logout UI answers through the admin API.
// Like login and consent, the request is bound to the browser that started it (the hash of its
// logout CSRF cookie) and accepting it yields a single-use verifier kept only as a hash.

/** Hydra's oAuth2LogoutRequest. */
export interface OAuth2LogoutRequest {
  challenge: string;
  subject: string;
  sid: string;
  request_url: string;
  rp_initiated: boolean;
  requested_at: string;
  expires_at: string;
  client?: Record<string, unknown>;
}

export interface NewLogoutRequest {
  subject: string;
  sid: string;
  clientId: string | undefined;
  requestUrl: string;
  rpInitiated: boolean;
  xsrf: string;
  /** The logout CSRF value given to the browser that started the logout. */
  csrf: string;
  /** Hydra's PostLogoutRedirectURI: the client's URI with `state`, or the configured default. */
  postLogoutRedirect: string;
}

export async function createLogoutRequest(
  db: OAuth2Db,
  request: NewLogoutRequest,
  now: Date,
  lifespanMs: number,
): Promise<string> {
  const challenge = randomId();
  await db
    .insertInto("oauth2_logout_requests")
    .values({
      challenge,
      // A stand-in nobody knows (the column is unique); accepting issues the real verifier.
      verifier_hash: secretHash(newSecret()),
      csrf_hash: secretHash(request.csrf),
      subject: request.subject,
      sid: request.sid,
      client_id: request.clientId ?? null,
      request_url: request.requestUrl,
      rp_initiated: request.rpInitiated ? 1 : 0,
      xsrf: request.xsrf,
      status: "pending",
      post_logout_redirect: request.postLogoutRedirect,
      requested_at: now.toISOString(),
      expires_at: addMs(now, lifespanMs).toISOString(),
    })
    .execute();
  return challenge;
}

async function loadLogoutRequest(
  deps: ChallengeDeps,
  challenge: string,
): Promise<OAuth2LogoutRequestsTable> {
  const row = await deps.db
    .selectFrom("oauth2_logout_requests")
    .selectAll()
    .where("challenge", "=", challenge)
    .executeTakeFirst();
  if (!row || row.status === "rejected") throw resourceNotFound();
  if (row.status === "used") throw new UsedChallengeError(row.request_url);
  if (new Date(row.expires_at) <= deps.now()) throw resourceNotFound();
  return row;
}

export async function getLogoutRequest(
  deps: ChallengeDeps,
  challenge: string,
): Promise<OAuth2LogoutRequest> {
  const row = await loadLogoutRequest(deps, challenge);
  return {
    challenge: row.challenge,
    subject: row.subject,
    sid: row.sid,
    request_url: row.request_url,
    rp_initiated: row.rp_initiated === 1,
    requested_at: isoSeconds(new Date(row.requested_at)),
    expires_at: isoSeconds(new Date(row.expires_at)),
    ...(row.client_id ? { client: await clientView(deps.db, row.client_id) } : {}),
  };
}

export async function acceptLogoutRequest(
  deps: ChallengeDeps,
  challenge: string,
): Promise<RedirectTo> {
  await loadLogoutRequest(deps, challenge);
  // Accepting again replaces the verifier: only the last answer's works.
  const verifier = newSecret();
  await deps.db
    .updateTable("oauth2_logout_requests")
    .set({ status: "accepted", verifier_hash: secretHash(verifier) })
    .where("challenge", "=", challenge)
    .execute();
  const url = new URL(`${deps.issuer}/oauth2/sessions/logout`);
  url.searchParams.set("logout_verifier", verifier);
  return { redirect_to: url.href };
}

/** Hydra forgets a rejected logout request; the logout UI decides where the browser goes. */
export async function rejectLogoutRequest(deps: ChallengeDeps, challenge: string): Promise<void> {
  await loadLogoutRequest(deps, challenge);
  await deps.db
    .updateTable("oauth2_logout_requests")
    .set({ status: "rejected" })
    .where("challenge", "=", challenge)
    .execute();
}

export interface AcceptedLogout {
  challenge: string;
  /** The login session (oidc-provider session uid) the logout ends. */
  sid: string;
  /** The hash of the CSRF value of the browser that started the logout. */
  csrfHash: string;
  /** Where the logout ends (undefined for requests stored before it was recorded). */
  postLogoutRedirect: string | undefined;
}

/** The accepted, unexpired logout request a verifier belongs to (nothing is spent yet). */
export async function findAcceptedLogout(
  db: OAuth2Db,
  verifier: string,
  now: Date,
): Promise<AcceptedLogout | undefined> {
  const row = await db
    .selectFrom("oauth2_logout_requests")
    .select(["challenge", "sid", "csrf_hash", "post_logout_redirect"])
    .where("verifier_hash", "=", secretHash(verifier))
    .where("status", "=", "accepted")
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return (
    row && {
      challenge: row.challenge,
      sid: row.sid,
      csrfHash: row.csrf_hash,
      postLogoutRedirect: row.post_logout_redirect ?? undefined,
    }
  );
}

/**
 * Spends an accepted logout once; false when another request spent it first. Called only after
 * the browser check, so a browser without the logout's CSRF cookie cannot use it up (issue 15).
 */
export async function spendAcceptedLogout(db: OAuth2Db, challenge: string): Promise<boolean> {
  const row = await db
    .updateTable("oauth2_logout_requests")
    .set({ status: "used" })
    .where("challenge", "=", challenge)
    .where("status", "=", "accepted")
    .returning("challenge")
    .executeTakeFirst();
  return row !== undefined;
}
