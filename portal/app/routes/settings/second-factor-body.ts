import type { PortalSettingsBody } from "@portal/client";
import { stringField } from "../../flows/submission.ts";

const lookupButtons = [
  "lookup_secret_regenerate",
  "lookup_secret_reveal",
  "lookup_secret_confirm",
  "lookup_secret_disable",
] as const;

/**
 * The body of a second-factor card's submission, from the clicked button (the identity service
 * recognises most of them by their own field, as Kratos does), or undefined when the posted
 * fields are none of them. The card a submission came from is its `group`.
 */
export function secondFactorBody(
  fields: Record<string, unknown>,
): { group: string; body: PortalSettingsBody } | undefined {
  const csrf_token = stringField(fields, "csrf_token");
  const untrust = stringField(fields, "totp_device_untrust");
  if (untrust)
    return { group: "trusted-devices", body: { totp_device_untrust: untrust, csrf_token } };

  const lookup = lookupButtons.find((name) => stringField(fields, name) === "true");
  if (lookup)
    return {
      group: "lookup_secret",
      body: { method: "lookup_secret", [lookup]: true, csrf_token },
    };

  if (stringField(fields, "totp_unlink") === "true") {
    return { group: "totp", body: { method: "totp", totp_unlink: true, csrf_token } };
  }
  if (stringField(fields, "method") === "totp") {
    const code = (stringField(fields, "totp_code") ?? "").trim();
    return { group: "totp", body: { method: "totp", totp_code: code, csrf_token } };
  }

  const enable = stringField(fields, "code_mfa_enable");
  const disable = stringField(fields, "code_mfa_disable");
  if (enable)
    return { group: "code", body: { method: "code", code_mfa_enable: enable, csrf_token } };
  if (disable)
    return { group: "code", body: { method: "code", code_mfa_disable: disable, csrf_token } };
  return undefined;
}
