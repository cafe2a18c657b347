import { passkeyRegistrationStrategy } from "./passkey/passkey-registration.ts";
import { passwordRegistrationStrategy } from "./password/registration.ts";
import { profileRegistrationStrategy } from "./profile/registration.ts";
import type { RegistrationStrategy } from "./registration-strategy.ts";

/**
 * Every registration strategy, in Kratos' order (profile first, then password, oidc, code…): forms
 * are added in this order and a submission goes to the first one responsible. A new method is its
 * folder and one line here.
 */
export function registrationStrategies(): readonly RegistrationStrategy[] {
  return [profileRegistrationStrategy, passwordRegistrationStrategy, passkeyRegistrationStrategy];
}
