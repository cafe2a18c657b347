import { BackupCodesCard } from "./backup-codes-card.tsx";
import { CodeMfaCard } from "./code-mfa-card.tsx";
import { PasskeysCard, SecurityKeysCard } from "./credentials-card.tsx";
import { PasswordCard } from "./password-card.tsx";
import { ProfileCard } from "./profile-card.tsx";
import type { SettingsCardDefinition } from "./settings-card.ts";
import { TotpCard, hasTotpSetting } from "./totp-card.tsx";
import { TrustedDevicesCard, hasTrustedDevices } from "./trusted-devices-card.tsx";

/**
 * The settings page's cards in page order, each keyed by the node group it renders (spec §2: a
 * card shows only if the flow has nodes of its group). A new method is a new card file and a
 * line here.
 */
export const settingsCards: readonly SettingsCardDefinition[] = [
  {
    id: "profile",
    group: "profile",
    anchor: "settings-profile",
    title: "settings.profile.title",
    Component: ProfileCard,
  },
  {
    id: "password",
    group: "password",
    anchor: "settings-password",
    title: "settings.password.title",
    Component: PasswordCard,
  },
  {
    id: "passkey",
    group: "passkey",
    anchor: "settings-passkeys",
    title: "settings.passkey.title",
    Component: PasskeysCard,
  },
  {
    // Spec §4's second-factor order: the security key first.
    id: "webauthn",
    group: "webauthn",
    anchor: "settings-security-keys",
    title: "settings.webauthn.title",
    Component: SecurityKeysCard,
  },
  {
    id: "totp",
    group: "totp",
    anchor: "settings-totp",
    title: "settings.totp.title",
    shows: hasTotpSetting,
    Component: TotpCard,
  },
  {
    id: "code",
    group: "code",
    anchor: "settings-code",
    title: "settings.code.title",
    Component: CodeMfaCard,
  },
  {
    id: "lookup_secret",
    group: "lookup_secret",
    anchor: "settings-backup-codes",
    title: "settings.backupCodes.title",
    Component: BackupCodesCard,
  },
  {
    id: "trusted-devices",
    group: "totp",
    anchor: "settings-trusted-devices",
    title: "settings.trustedDevices.title",
    shows: hasTrustedDevices,
    Component: TrustedDevicesCard,
  },
];
