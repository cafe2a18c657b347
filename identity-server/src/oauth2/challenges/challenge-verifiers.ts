import { createHash, timingSafeEqual } from "node:crypto";
import type { Interaction } from "oidc-provider";
import { randomId } from "../crypto/random.ts";
import { resourceNotFound } from "../hydra-error.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import type { ChallengeDeps } from "./challenge-deps.ts";
import { requestUrlOf, type ChallengeKind } from "./interactions.ts";

// Hydra binds a login or consent challenge to the browser that started it: that browser gets a
// CSRF cookie, and answering the challenge yields a single-use verifier that only works together
// with that cookie. Both are high-entropy random values, so a SHA-256 is all the database needs.

/** SHA-256 of a random secret (a verifier or a CSRF value), as kept in the database. */
export function secretHash(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

/** Whether `presented` is the secret behind `storedHash`, in constant time. */
export function matchesHash(presented: string, storedHash: string): boolean {
  const wanted = Buffer.from(secretHash(presented));
  const stored = Buffer.from(storedHash);
  return wanted.length === stored.length && timingSafeEqual(wanted, stored);
}

/** A fresh verifier or CSRF value (256 bits). */
export function newSecret(): string {
  return randomId(32);
}

export interface ChallengeBinding {
  challenge: string;
  kind: ChallengeKind;
  clientId: string;
  csrf: string;
  expiresAt: Date;
}

/** Records which CSRF value the browser starting this challenge was given. */
export async function bindChallenge(db: OAuth2Db, binding: ChallengeBinding): Promise<void> {
  await db
    .insertInto("oauth2_challenge_verifiers")
    .values({
      challenge: binding.challenge,
      kind: binding.kind,
      client_id: binding.clientId,
      csrf_hash: secretHash(binding.csrf),
      verifier_hash: null,
      verifier_used_at: null,
      expires_at: binding.expiresAt.toISOString(),
    })
    .execute();
}

/**
 * A verifier for an answered challenge. Answering again before the browser came back replaces it
 * (the earlier verifier stops working), as the last answer is the one that counts.
 */
async function issueVerifier(db: OAuth2Db, challenge: string): Promise<string> {
  const verifier = newSecret();
  const updated = await db
    .updateTable("oauth2_challenge_verifiers")
    .set({ verifier_hash: secretHash(verifier), verifier_used_at: null })
    .where("challenge", "=", challenge)
    .executeTakeFirst();
  // Only a challenge started before browser binding existed has no row; it cannot be finished.
  if (Number(updated.numUpdatedRows) === 0) throw resourceNotFound();
  return verifier;
}

/**
 * Answers a challenge (accepted or rejected): the interaction keeps `result` for the browser's
 * return, and Hydra's redirect_to is the original authorization URL plus `login_verifier` or
 * `consent_verifier`.
 */
export async function answerChallenge(
  deps: ChallengeDeps,
  interaction: Interaction,
  kind: ChallengeKind,
  result: Interaction["result"],
): Promise<{ redirect_to: string }> {
  interaction.result = result;
  await interaction.persist();
  const verifier = await issueVerifier(deps.db, interaction.uid);
  const url = new URL(requestUrlOf(deps, interaction));
  url.searchParams.set(`${kind}_verifier`, verifier);
  return { redirect_to: url.href };
}

export interface SpentVerifier {
  challenge: string;
  clientId: string;
  csrfHash: string;
}

/**
 * Spends a verifier: it works once, for the kind of challenge it was issued for, until the
 * challenge expires. Spent before the browser check, so a verifier presented by the wrong browser
 * is gone for everyone.
 */
export async function spendVerifier(
  db: OAuth2Db,
  kind: ChallengeKind,
  verifier: string,
  now: Date,
): Promise<SpentVerifier | undefined> {
  const row = await db
    .updateTable("oauth2_challenge_verifiers")
    .set({ verifier_used_at: now.toISOString() })
    .where("verifier_hash", "=", secretHash(verifier))
    .where("kind", "=", kind)
    .where("verifier_used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .returning(["challenge", "client_id", "csrf_hash"])
    .executeTakeFirst();
  return row && { challenge: row.challenge, clientId: row.client_id, csrfHash: row.csrf_hash };
}
