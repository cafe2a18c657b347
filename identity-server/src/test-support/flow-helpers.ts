import type { LoginFlow, RegistrationFlow, UiNode, UiNodeInputAttributes } from "@ory/client-fetch";
import type { TestServer } from "./test-server.ts";

type AnyFlow = LoginFlow | RegistrationFlow | { ui: { nodes: UiNode[] } };

export function inputAttributes(flow: AnyFlow, name: string): UiNodeInputAttributes | undefined {
  for (const node of flow.ui.nodes) {
    const attributes = node.attributes as UiNodeInputAttributes;
    if (attributes.node_type === "input" && attributes.name === name) return attributes;
  }
  return undefined;
}

export function nodeNamed(flow: AnyFlow, name: string): UiNode | undefined {
  return flow.ui.nodes.find((n) => (n.attributes as UiNodeInputAttributes).name === name);
}

export function csrfTokenOf(flow: AnyFlow): string {
  const value: unknown = inputAttributes(flow, "csrf_token")?.value;
  if (typeof value !== "string") throw new Error("flow has no csrf_token");
  return value;
}

/** Message ids on a node, or on the whole form with name "". */
export function messageIds(
  flow: { ui: { nodes: UiNode[]; messages?: { id: number }[] } },
  name: string,
): number[] {
  if (name === "") return (flow.ui.messages ?? []).map((m) => m.id);
  return (nodeNamed(flow, name)?.messages ?? []).map((m) => m.id);
}

export const strongPassword = "correct-Horse-battery-2-staple";

/** Registers through the native API and returns the session token and identity id. */
export async function registerNative(
  ts: TestServer,
  email: string,
  password = strongPassword,
): Promise<{ token: string; identityId: string }> {
  const api = ts.native();
  const flow = await api.createNativeRegistrationFlow();
  const result = await api.updateRegistrationFlow({
    flow: flow.id,
    updateRegistrationFlowBody: { method: "password", password, traits: { email } },
  });
  if (!result.session_token) throw new Error("registration returned no session token");
  return { token: result.session_token, identityId: result.identity.id };
}
