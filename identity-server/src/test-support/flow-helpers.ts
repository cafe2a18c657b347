import {
  ResponseError,
  type LoginFlow,
  type RegistrationFlow,
  type UiNode,
  type UiNodeInputAttributes,
} from "@ory/client-fetch";
import type { TestServer } from "./test-server.ts";

type AnyFlow = LoginFlow | RegistrationFlow | { ui: { nodes: UiNode[] } };

export function inputAttributes(flow: AnyFlow, name: string): UiNodeInputAttributes | undefined {
  for (const node of flow.ui.nodes) {
    const attributes = node.attributes as UiNodeInputAttributes;
    if (attributes.node_type === "input" && attributes.name === name) return attributes;
  }
  return undefined;
}

function nodeNamed(flow: AnyFlow, name: string): UiNode | undefined {
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

export interface Failure {
  status: number;
  body: unknown;
  location: string | undefined;
}

/** Status, JSON body and Location of an SDK call that is expected to fail (any non-2xx answer). */
export async function failureOf(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResponseError) {
      const text = await error.response.text();
      return {
        status: error.response.status,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        location: error.response.headers.get("location") ?? undefined,
      };
    }
    throw error;
  }
  throw new Error("the call unexpectedly succeeded");
}

/** Nodes reduced to what the portal keys on: type, group, name/id, input type and label id. */
export function nodeShape(flow: { ui: { nodes: UiNode[] } }): string[] {
  return flow.ui.nodes.map((node) => {
    const attributes = node.attributes as { name?: string; id?: string; type?: string };
    const label = node.meta.label?.id ?? "-";
    return `${node.type}/${node.group}/${attributes.name ?? attributes.id ?? ""}/${attributes.type ?? ""}/${label}`;
  });
}
