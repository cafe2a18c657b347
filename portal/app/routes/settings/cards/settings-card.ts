import type { SettingsFlow, UiNode } from "@portal/client";
import type { ComponentType } from "react";
import type { FieldErrors } from "../../../flows/use-live-errors.ts";
import type { MessageKey } from "../../../i18n/translator.ts";

/** The portal's own validation answer to one card's form (the server's is in the flow). */
export interface CardResult {
  fieldErrors: FieldErrors;
  values: Partial<Record<string, string>>;
}

export interface SettingsCardProps {
  flow: SettingsFlow;
  /** The nodes of the card's group plus the flow's own (the CSRF token): what its form posts. */
  nodes: UiNode[];
  /** The action's validation answer when this card's form was the one posted. */
  result: CardResult | undefined;
  /** Changes with every action answer, so live messages start over from it. */
  resultKey: unknown;
  /** This browser's fingerprint, when it sent one (marks "this device" among trusted ones). */
  fingerprint: string | undefined;
}

/** One card of the settings page, keyed by the node group it renders. */
export interface SettingsCardDefinition {
  /** Unique among the cards (one group can feed two cards). */
  id: string;
  group: string;
  /** The card's section id and title, for the page's section navigation. */
  anchor: string;
  title: MessageKey;
  /**
   * Whether the card has anything to show among its group's nodes; by default, any node of
   * its group (spec §2: a card shows only if the flow has nodes of that group).
   */
  shows?: (groupNodes: readonly UiNode[]) => boolean;
  Component: ComponentType<SettingsCardProps>;
}
