import type { UiNode } from "@portal/client";
import { isInputNode, isSubmitNode } from "../../flows/node-guards.ts";
import { fromParam, methodParam } from "./second-factor-params.ts";

/** Spec §4: the second-factor methods in the order they are offered. */
const secondFactorMethods = ["webauthn", "totp", "code", "lookup_secret"] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

/** Query parameters of the chooser (links, so that it works without JavaScript). */
export { fromParam, methodParam };
/** `?method=choose` shows the chooser; `from` is the method "Back" returns to. */
export const chooseValue = "choose";

const trustDeviceName = "trust_device";

export type SecondFactorView =
  /** One method's form; `others` when there are more methods to choose from. */
  | { kind: "method"; method: SecondFactorMethod; others: boolean }
  | { kind: "chooser"; methods: SecondFactorMethod[]; back: SecondFactorMethod | undefined }
  /** A code was sent: its entry and resend only, no chooser (spec §4). */
  | { kind: "code-sent" }
  /** Nodes of no known method: the form as the server sent it. */
  | { kind: "all" };

function isMethod(value: string | null): value is SecondFactorMethod {
  return (secondFactorMethods as readonly (string | null)[]).includes(value);
}

/** The methods the flow offers, in the portal's order. */
export function offeredMethods(nodes: readonly UiNode[]): SecondFactorMethod[] {
  return secondFactorMethods.filter((method) => nodes.some((node) => node.group === method));
}

/** The code entry of a sent code: the state says so (a code input appears only then, too). */
function codeSent(flow: { state?: unknown; ui: { nodes: readonly UiNode[] } }): boolean {
  if (flow.state === "sent_email" || flow.state === "sent_sms") return true;
  return flow.ui.nodes.some(
    (node) => node.group === "code" && isInputNode(node) && node.attributes.name === "code",
  );
}

/**
 * What the second-factor screen shows. The authenticator app is the default when there is one;
 * otherwise several methods start at the chooser. `?method=` picks one, `?method=choose`
 * opens the chooser, whose "Back" returns to `?from=` (or the default).
 */
export function secondFactorView(
  flow: { state?: unknown; ui: { nodes: readonly UiNode[] } },
  query: URLSearchParams,
): SecondFactorView {
  if (codeSent(flow)) return { kind: "code-sent" };
  const methods = offeredMethods(flow.ui.nodes);
  const [only] = methods;
  if (only === undefined) return { kind: "all" };
  if (methods.length === 1) return { kind: "method", method: only, others: false };

  const requested = query.get(methodParam);
  const fallback: SecondFactorMethod | undefined = methods.includes("totp") ? "totp" : undefined;
  if (requested === chooseValue) {
    const from = query.get(fromParam);
    const back = isMethod(from) && methods.includes(from) ? from : fallback;
    return { kind: "chooser", methods, back };
  }
  if (isMethod(requested) && methods.includes(requested)) {
    return { kind: "method", method: requested, others: true };
  }
  return fallback
    ? { kind: "method", method: fallback, others: true }
    : { kind: "chooser", methods, back: undefined };
}

/**
 * One form's nodes: the flow's own (CSRF token, identifier) and those of `groups`, with the
 * trust-this-device checkbox just before the first button, where it is read. Forms that only
 * send a code leave it out: nothing is trusted until a code is entered.
 */
export function formNodes(nodes: readonly UiNode[], groups: readonly string[]): UiNode[] {
  const isTrust = (node: UiNode) => isInputNode(node) && node.attributes.name === trustDeviceName;
  const trust = nodes.find(isTrust);
  const own = nodes.filter(
    (node) => !isTrust(node) && (node.group === "default" || groups.includes(node.group)),
  );
  const entersSecret = own.some(
    (node) =>
      isInputNode(node) &&
      node.group !== "default" &&
      !["hidden", "submit", "button"].includes(node.attributes.type),
  );
  if (!trust || !entersSecret) return own;
  const firstSubmit = own.findIndex(isSubmitNode);
  if (firstSubmit < 0) return [...own, trust];
  return [...own.slice(0, firstSubmit), trust, ...own.slice(firstSubmit)];
}
