import { isRecord } from "./node-guards.ts";

/** Portal pages a continue_with item can send the browser to. */
export type ContinuePage = "settings" | "recovery" | "verification";

/**
 * A flow page of ours (with the identity service's own URL for it, when it sent one), or a URL
 * to send the browser to.
 */
export type ContinueTarget = { page: ContinuePage; flowId: string; url?: string } | { url: string };

/** Spec §2 "Action priority": settings, recovery, verification, redirect browser, session token. */
const pagesByAction: ReadonlyArray<[action: string, page: ContinuePage]> = [
  ["show_settings_ui", "settings"],
  ["show_recovery_ui", "recovery"],
  ["show_verification_ui", "verification"],
];

/**
 * The one continue_with item to act on, or undefined when none leads anywhere. Items are chosen
 * by action, never by position: Kratos puts redirect_browser_to first after registration.
 * `set_ory_session_token` only occurs for API flows, which the portal never starts.
 */
export function pickContinueWith(items: unknown): ContinueTarget | undefined {
  if (!Array.isArray(items)) return undefined;
  const records = items.filter(isRecord);
  for (const [action, page] of pagesByAction) {
    const item = records.find((candidate) => candidate.action === action);
    const flow = item?.flow;
    if (!isRecord(flow)) continue;
    const url = typeof flow.url === "string" && flow.url !== "" ? flow.url : undefined;
    if (typeof flow.id === "string" && flow.id !== "") {
      return url === undefined ? { page, flowId: flow.id } : { page, flowId: flow.id, url };
    }
    if (url !== undefined) return { url };
  }
  const redirect = records.find((candidate) => candidate.action === "redirect_browser_to");
  if (typeof redirect?.redirect_browser_to === "string")
    return { url: redirect.redirect_browser_to };
  return undefined;
}
