import type { UiContainer } from "../ui/nodes.ts";

export type FlowKind = "login" | "registration";
export type FlowType = "browser" | "api";

/** A self-service flow as stored; one shape for every kind so later kinds reuse the machinery. */
export interface Flow {
  id: string;
  kind: FlowKind;
  type: FlowType;
  state: string;
  requestUrl: string;
  returnTo: string | undefined;
  ui: UiContainer;
  /** The masked anti-CSRF token the flow was created with (browser flows). */
  csrfToken: string;
  /** Server-side state that is never serialised (Kratos' internal_context). */
  internalContext: Record<string, unknown>;
  active: string | undefined;
  refresh: boolean;
  requestedAal: string;
  issuedAt: Date;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** The flow's public JSON, field for field as Kratos' loginFlow / registrationFlow. */
export function flowJson(flow: Flow): Record<string, unknown> {
  const common = {
    id: flow.id,
    type: flow.type,
    expires_at: flow.expiresAt.toISOString(),
    issued_at: flow.issuedAt.toISOString(),
    request_url: flow.requestUrl,
    ...(flow.returnTo ? { return_to: flow.returnTo } : {}),
    ...(flow.active ? { active: flow.active } : {}),
    ui: flow.ui,
  };
  if (flow.kind === "login") {
    const { id, ...rest } = common;
    return {
      id,
      organization_id: null,
      ...rest,
      created_at: flow.createdAt.toISOString(),
      updated_at: flow.updatedAt.toISOString(),
      refresh: flow.refresh,
      requested_aal: flow.requestedAal,
      state: flow.state,
    };
  }
  return { ...common, organization_id: null, state: flow.state };
}
