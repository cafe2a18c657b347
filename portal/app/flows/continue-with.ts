import { isRecord } from "./node-guards.ts";

/** Portal pages a continue_with item can send the browser to. */
type ContinuePage = "settings" | "recovery" | "verification";

/**
 * A flow page of ours (with the identity service's own URL for it, when it sent one), or a URL
 * to send the browser to.
 */
export type ContinueTarget = { page: ContinuePage; flowId: string; url?: string } | { url: string };

const sessionTokenAction = "set_ory_session_token";
const redirectAction = "redirect_browser_to";

/** Spec §2 "Action priority": settings, recovery, verification, redirect browser, session token. */
const actionsByPriority = [
  "show_settings_ui",
  "show_recovery_ui",
  "show_verification_ui",
  redirectAction,
  sessionTokenAction,
] as const;

const pageOf: Readonly<Record<string, ContinuePage>> = {
  show_settings_ui: "settings",
  show_recovery_ui: "recovery",
  show_verification_ui: "verification",
};

/** A continue_with list asked for something the portal cannot do (spec §8 "Other"). */
class UnsupportedContinueWith extends Error {
  override name = "UnsupportedContinueWith";
}

/**
 * The one continue_with item to act on, or undefined when the list is empty or names nothing to
 * do. Items are chosen by action priority, never by position: Kratos puts redirect_browser_to
 * first after registration. Spec §8: an item of an unknown action throws, and so does a session
 * token, which only API flows receive (the portal starts browser flows only).
 */
export function pickContinueWith(items: unknown): ContinueTarget | undefined {
  if (!Array.isArray(items)) return undefined;
  const records = items.filter(isRecord);
  for (const action of actionsByPriority) {
    for (const item of records.filter((candidate) => candidate.action === action)) {
      const target = targetOf(item);
      if (target) return target;
    }
  }
  const known: readonly unknown[] = actionsByPriority;
  const unknown = records.find((item) => !known.includes(item.action));
  if (unknown) {
    throw new UnsupportedContinueWith(
      `Unknown continue_with action ${JSON.stringify(unknown.action)}`,
    );
  }
  return undefined;
}

function targetOf(item: Record<string, unknown>): ContinueTarget | undefined {
  const action = String(item.action);
  if (action === sessionTokenAction) {
    throw new UnsupportedContinueWith("The portal does not support API flows yet");
  }
  if (action === redirectAction) {
    const url = item.redirect_browser_to;
    return typeof url === "string" && url !== "" ? { url } : undefined;
  }
  const page = pageOf[action];
  const flow = item.flow;
  if (page === undefined || !isRecord(flow)) return undefined;
  const url = typeof flow.url === "string" && flow.url !== "" ? flow.url : undefined;
  if (typeof flow.id === "string" && flow.id !== "") {
    return url === undefined ? { page, flowId: flow.id } : { page, flowId: flow.id, url };
  }
  return url === undefined ? undefined : { url };
}
