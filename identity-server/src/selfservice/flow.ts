import type { OAuth2LoginRequest } from "../oauth2/challenges/login-requests.ts";
import type { UiContainer } from "../ui/nodes.ts";
import type { ContinueWith } from "./continue-with.ts";

export type FlowKind = "login" | "registration" | "recovery" | "verification" | "settings";
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
  /** One-time code submissions so far; the brute-force limit counts these for the flow's life. */
  submitCount: number;
  /** Settings: the owner. Recovery: the recovered identity. Verification: the identity it was made for. */
  identityId: string | undefined;
  /** Language of the messages sent for this flow ("en" or "es"). */
  locale: string;
  /** API login/registration with `return_session_token_exchange_code=true`: the init code. */
  sessionTokenExchangeCode?: string | undefined;
  /** Browser login/registration (and the verification a registration starts): the OAuth2 login challenge. */
  oauth2LoginChallenge?: string | undefined;
  /** Answer-only: the OAuth2 login request behind the challenge, read again for every answer. */
  oauth2LoginRequest?: OAuth2LoginRequest;
  /** Answer-only: what the client should do next (never stored, as in Kratos' responses). */
  continueWith?: ContinueWith[];
  /** Answer-only: the `transient_payload` of the submission being answered. */
  transientPayload?: Record<string, unknown>;
}

/** What a flow's JSON needs beyond the flow itself. */
export interface FlowJsonExtras {
  /** The settings flow's identity, already rendered (without credentials). */
  identity?: Record<string, unknown>;
}

/** The flow's public JSON, field for field as Kratos encodes each kind. */
export function flowJson(flow: Flow, extras: FlowJsonExtras = {}): Record<string, unknown> {
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
  const continueWith =
    flow.continueWith && flow.continueWith.length > 0 ? { continue_with: flow.continueWith } : {};
  const transientPayload = flow.transientPayload
    ? { transient_payload: flow.transientPayload }
    : {};
  const exchangeCode = flow.sessionTokenExchangeCode
    ? { session_token_exchange_code: flow.sessionTokenExchangeCode }
    : {};
  // Verification keeps its challenge to itself (Kratos encodes it there as json:"-").
  const oauth2 = {
    ...(flow.oauth2LoginChallenge ? { oauth2_login_challenge: flow.oauth2LoginChallenge } : {}),
    ...(flow.oauth2LoginRequest ? { oauth2_login_request: flow.oauth2LoginRequest } : {}),
  };
  switch (flow.kind) {
    case "login": {
      const { id, ...rest } = common;
      return {
        id,
        organization_id: null,
        ...rest,
        created_at: flow.createdAt.toISOString(),
        updated_at: flow.updatedAt.toISOString(),
        refresh: flow.refresh,
        requested_aal: flow.requestedAal,
        ...oauth2,
        ...exchangeCode,
        state: flow.state,
      };
    }
    case "registration":
      return { ...common, ...oauth2, organization_id: null, ...exchangeCode, state: flow.state };
    case "recovery":
      return { ...common, state: flow.state, ...continueWith, ...transientPayload };
    case "verification":
      return { ...common, state: flow.state, ...transientPayload };
    case "settings":
      return {
        ...common,
        identity: extras.identity ?? {},
        state: flow.state,
        organization_id: null,
        ...continueWith,
        ...transientPayload,
      };
  }
}
