import type { SecondFactorConfig } from "../config/second-factor-config.ts";
import { loginStrategiesFor } from "../methods/login-strategies.ts";
import type { Identity } from "./identity.ts";

/** Whether any strategy of the AAL can sign the identity in (the registry decides, not a list here). */
function canUse(aal: "aal1" | "aal2", identity: Identity, config: SecondFactorConfig): boolean {
  return loginStrategiesFor(aal).some((strategy) => strategy.configured(identity, config));
}

/** Whether the identity has an active second factor (Kratos' CountActiveMultiFactorCredentials > 0). */
export function hasSecondFactor(identity: Identity, config: SecondFactorConfig): boolean {
  return canUse("aal2", identity, config);
}

/**
 * Kratos' SetAvailableAAL: aal2 when the identity has an active second factor, aal1 when it has a
 * first factor, aal0 otherwise.
 */
export function availableAal(
  identity: Identity,
  config: SecondFactorConfig,
): "aal0" | "aal1" | "aal2" {
  if (canUse("aal2", identity, config)) return "aal2";
  return canUse("aal1", identity, config) ? "aal1" : "aal0";
}
