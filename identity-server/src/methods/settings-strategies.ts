import type { FieldSpec, FlowBody } from "../http/flow-body.ts";
import { trustedDeviceSettingsStrategy } from "../trusted-devices/trusted-devices-settings.ts";
import { codeSettingsStrategy } from "./code/mfa-settings.ts";
import { lookupSettingsStrategy } from "./lookup/lookup-settings.ts";
import { passkeySettingsStrategy } from "./passkey/passkey-settings.ts";
import { passwordSettingsStrategy } from "./password/settings.ts";
import { profileSettingsStrategy } from "./profile/settings.ts";
import type { SettingsStrategy } from "./settings-strategy.ts";
import { totpSettingsStrategy } from "./totp/totp-settings.ts";
import { webauthnSettingsStrategy } from "./webauthn/webauthn-settings.ts";

/**
 * Every settings strategy, in the order a submission is matched: those recognised by their own
 * buttons (backup codes, our trusted devices, totp_unlink, security keys, our code toggles) before
 * those chosen by `method` alone. Each adds its group to the form (the form is sorted by group afterwards, so this
 * order does not show there). A new method is its folder and one line here.
 */
export function settingsStrategies(): readonly SettingsStrategy[] {
  return [
    lookupSettingsStrategy,
    trustedDeviceSettingsStrategy,
    totpSettingsStrategy,
    webauthnSettingsStrategy,
    passkeySettingsStrategy,
    codeSettingsStrategy,
    profileSettingsStrategy,
    passwordSettingsStrategy,
  ];
}

/** Every strategy's selector fields, once each: enough to tell which one is responsible. */
function settingsSelectorFields(): FieldSpec[] {
  const all = settingsStrategies().flatMap((strategy) => strategy.selectorFields);
  return all.filter((field, index) => all.findIndex((f) => f.name === field.name) === index);
}

/**
 * Which strategy a submission is for, in Kratos' way: backup-code buttons, `totp_unlink` and our
 * `totp_device_untrust` are recognised by their own fields; everything else by `method`. The
 * selector fields of every strategy are decoded together first, so a malformed one fails the
 * submission whichever strategy it is for.
 */
export function settingsStrategyFor(body: FlowBody): SettingsStrategy | undefined {
  const values = body.fields(settingsSelectorFields());
  return settingsStrategies().find((strategy) => strategy.responsible(values));
}
