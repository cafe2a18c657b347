import { codeLoginStrategy } from "./code/mfa-login.ts";
import type { LoginStrategy } from "./login-strategy.ts";
import { lookupLoginStrategy } from "./lookup/lookup-login.ts";
import { passkeyLoginStrategy } from "./passkey/passkey-login.ts";
import { passwordLoginStrategy } from "./password/login.ts";
import { totpLoginStrategy } from "./totp/totp-login.ts";
import { webauthnLoginStrategy } from "./webauthn/webauthn-login.ts";
import { webauthnPasswordlessLoginStrategy } from "./webauthn/passwordless-login.ts";

/**
 * Every login strategy, in the order Kratos asks them: a submission goes to the first one
 * responsible, and forms are added in this order. A new method is its folder and one line here.
 * A function, not a constant, so that modules the strategies import may read the registry too.
 */
export function loginStrategies(): readonly LoginStrategy[] {
  return [
    passwordLoginStrategy,
    codeLoginStrategy,
    passkeyLoginStrategy,
    totpLoginStrategy,
    webauthnPasswordlessLoginStrategy,
    webauthnLoginStrategy,
    lookupLoginStrategy,
  ];
}

/** The strategies that give the AAL (aal1: first factors, aal2: second factors). */
export function loginStrategiesFor(aal: LoginStrategy["aal"]): readonly LoginStrategy[] {
  return loginStrategies().filter((strategy) => strategy.aal === aal);
}
