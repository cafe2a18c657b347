import type { Identity } from "../identity/identity.ts";
import type { Executor } from "../store/schema.ts";
import { deleteTrustedDevicesOf } from "../store/trusted-devices.ts";

/**
 * What a settings strategy asks the settings flow to do after a submission:
 * - `save`: store the identity, run `effects` in the same transaction, then answer success
 *   (state `success`, message 1050001, the whole form rebuilt);
 * - `show-form`: the strategy changed the flow's form itself (reveal or generate backup codes)
 *   and it is answered as it is (Kratos' ErrStrategyAsksToReturnToUI: JSON 200, browsers 303).
 */
export type SettingsOutcome =
  | { kind: "save"; identity: Identity; effects?: (db: Executor) => Promise<void> }
  | { kind: "show-form" };

export const save = (
  identity: Identity,
  effects?: (db: Executor) => Promise<void>,
): SettingsOutcome => ({ kind: "save", identity, ...(effects ? { effects } : {}) });

/** Saves an identity that lost a second factor: browsers trusted under it must prove themselves again. */
export const saveWithoutSecondFactor = (identity: Identity): SettingsOutcome =>
  save(identity, async (db) => {
    await deleteTrustedDevicesOf(db, identity.id);
  });
