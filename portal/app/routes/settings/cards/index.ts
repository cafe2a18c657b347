import { PasswordCard } from "./password-card.tsx";
import { ProfileCard } from "./profile-card.tsx";
import type { SettingsCardDefinition } from "./settings-card.ts";

/**
 * The settings page's cards in page order, each keyed by the node group it renders (spec §2: a
 * card shows only if the flow has nodes of its group). A new method is a new card file and a
 * line here.
 */
export const settingsCards: readonly SettingsCardDefinition[] = [
  { group: "profile", Component: ProfileCard },
  { group: "password", Component: PasswordCard },
];
