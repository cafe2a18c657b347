import type { Executor } from "./schema.ts";

/**
 * Records `step` as the identity's newest accepted TOTP step unless it is not newer than the one
 * stored; returns whether it was recorded. A code (and any older one) is thereby accepted once.
 */
export async function claimTotpStep(
  db: Executor,
  identityId: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const result = await db
    .insertInto("totp_used_steps")
    .values({ identity_id: identityId, step, updated_at: now.toISOString() })
    .onConflict((oc) =>
      oc
        .column("identity_id")
        .doUpdateSet({ step, updated_at: now.toISOString() })
        .where("totp_used_steps.step", "<", step),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
