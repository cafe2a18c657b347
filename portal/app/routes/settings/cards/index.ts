import { hasTotpSetting, hasTrustedDevices } from "./card-shows.ts";
import { lazyCard } from "./lazy-card.tsx";
import type { ComponentType } from "react";
import type { SessionsCardProps } from "./sessions-card.tsx";
import type { SettingsCardDefinition, SettingsCardProps } from "./settings-card.ts";

type CardComponent = ComponentType<SettingsCardProps>;

/** A card of the page outline whose code is not among the page's scripts (cards/lazy-card.tsx). */
function defineCard(
  definition: Omit<SettingsCardDefinition, "Component">,
  load: () => Promise<CardComponent>,
) {
  const { Component, ready } = lazyCard(definition.anchor, load);
  return { definition: { ...definition, Component }, ready };
}

const sessions = lazyCard<SessionsCardProps>("settings-sessions", () =>
  import("./all-cards.ts").then((module) => module.SessionsCard),
);

/** Where the user is signed in (not a flow group: the settings loader lists the sessions). */
export const SessionsCard = sessions.Component;

/**
 * The settings page's cards in page order, each keyed by the node group it renders (spec §2: a
 * card shows only if the flow has nodes of its group). A new method is a new card file and a
 * line here.
 */
const cards = [
  defineCard(
    {
      id: "profile",
      group: "profile",
      anchor: "settings-profile",
      title: "settings.profile.title",
    },
    () => import("./all-cards.ts").then((module) => module.ProfileCard),
  ),
  defineCard(
    {
      id: "password",
      group: "password",
      anchor: "settings-password",
      title: "settings.password.title",
    },
    () => import("./all-cards.ts").then((module) => module.PasswordCard),
  ),
  defineCard(
    {
      id: "passkey",
      group: "passkey",
      anchor: "settings-passkeys",
      title: "settings.passkey.title",
    },
    () => import("./all-cards.ts").then((module) => module.PasskeysCard),
  ),
  defineCard(
    {
      // Spec §4's second-factor order: the security key first.
      id: "webauthn",
      group: "webauthn",
      anchor: "settings-security-keys",
      title: "settings.webauthn.title",
    },
    () => import("./all-cards.ts").then((module) => module.SecurityKeysCard),
  ),
  defineCard(
    {
      id: "totp",
      group: "totp",
      anchor: "settings-totp",
      title: "settings.totp.title",
      shows: hasTotpSetting,
    },
    () => import("./all-cards.ts").then((module) => module.TotpCard),
  ),
  defineCard(
    {
      id: "code",
      group: "code",
      anchor: "settings-code",
      title: "settings.code.title",
    },
    () => import("./all-cards.ts").then((module) => module.CodeMfaCard),
  ),
  defineCard(
    {
      id: "lookup_secret",
      group: "lookup_secret",
      anchor: "settings-backup-codes",
      title: "settings.backupCodes.title",
    },
    () => import("./all-cards.ts").then((module) => module.BackupCodesCard),
  ),
  defineCard(
    {
      id: "trusted-devices",
      group: "totp",
      anchor: "settings-trusted-devices",
      title: "settings.trustedDevices.title",
      shows: hasTrustedDevices,
    },
    () => import("./all-cards.ts").then((module) => module.TrustedDevicesCard),
  ),
];

export const settingsCards: readonly SettingsCardDefinition[] = cards.map(
  (card) => card.definition,
);

/** Settles once the server holds every card's module, so its render never waits for one. */
export const settingsCardsReady: Promise<unknown> = Promise.all(
  [...cards, sessions].map((card) => card.ready),
);
