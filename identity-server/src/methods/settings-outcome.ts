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
  | {
      kind: "save";
      identity: Identity;
      effects?: (db: Executor) => Promise<void>;
      /**
       * The same change applied to the identity as stored at save time (read again in the saving
       * transaction): a strategy that changes one credential gives it, so whatever another request
       * changed since the session's copy was read (a passkey added, removed, or its counter moved
       * by a sign-in) is kept instead of overwritten. It may throw, e.g. when the change no
       * longer applies.
       */
      rebase?: (current: Identity) => Identity;
    }
  | { kind: "show-form" };

type Rebase = (current: Identity) => Identity;

export const save = (
  identity: Identity,
  effects?: (db: Executor) => Promise<void>,
  rebase?: Rebase,
): SettingsOutcome => ({
  kind: "save",
  identity,
  ...(effects ? { effects } : {}),
  ...(rebase ? { rebase } : {}),
});

/** Saves an identity that lost a second factor: browsers trusted under it must prove themselves again. */
export const saveWithoutSecondFactor = (identity: Identity, rebase?: Rebase): SettingsOutcome =>
  save(
    identity,
    async (db) => {
      await deleteTrustedDevicesOf(db, identity.id);
    },
    rebase,
  );
