import { isRecord } from "./node-guards.ts";

/** Portal pages a continue_with item can send the browser to. */
export type ContinuePage = "settings" | "recovery" | "verification";

export type ContinueTarget = { page: ContinuePage; flowId: string } | { url: string };

/** Spec §2 "Action priority": settings, recovery, verification, redirect browser, session token. */
const pagesByAction: ReadonlyArray<[action: string, page: ContinuePage]> = [
  ["show_settings_ui", "settings"],
  ["show_recovery_ui", "recovery"],
  ["show_verification_ui", "verification"],
];

/**
 * The one continue_with item to act on, or undefined when none leads anywhere. A `flow.url`
 * wins over our own page for that flow, as the identity service knows best where it lives.
 * `set_ory_session_token` only occurs for API flows, which the portal never starts.
 */
export function pickContinueWith(items: unknown): ContinueTarget | undefined {
  if (!Array.isArray(items)) return undefined;
  const records = items.filter(isRecord);
  for (const [action, page] of pagesByAction) {
    const item = records.find((candidate) => candidate.action === action);
    const flow = item?.flow;
    if (!isRecord(flow)) continue;
    if (typeof flow.url === "string" && flow.url !== "") return { url: flow.url };
    if (typeof flow.id === "string") return { page, flowId: flow.id };
  }
  const redirect = records.find((candidate) => candidate.action === "redirect_browser_to");
  if (typeof redirect?.redirect_browser_to === "string")
    return { url: redirect.redirect_browser_to };
  return undefined;
}
