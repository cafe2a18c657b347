import { pickContinueWith } from "./continue-with.ts";
import type { ContinueTarget } from "./continue-with.ts";
import { isRecord } from "./node-guards.ts";

/** Why a flow has to be started again. */
export type RestartReason =
  "expired" | "csrf" | "not-found" | "return-to-forbidden" | "identity-mismatch" | "failed";

/**
 * Every answer of the identity service, sorted into what the portal does next (spec §8).
 * Kratos signals ordinary outcomes with error statuses, so status alone is not enough.
 */
export type IdentityOutcome =
  /**
   * A flow to (re-)render: a fetch, or a 400 with validation messages / a next step.
   * `refreshHint`: a 400 whose message tells to sign in with refresh=true (spec §8, login).
   */
  | { kind: "flow"; status: number; flow: FlowShape; refreshHint?: boolean }
  /** continue_with told us where to go (already picked by priority). */
  | { kind: "continue"; target: ContinueTarget }
  /** The browser must go to this URL (422 browser_location_change_required, 3xx). */
  | { kind: "redirect"; url: string }
  /** 403 session_aal2_required: the second factor first, at the URL the service named if any. */
  | { kind: "aal2-required"; url?: string }
  /** 403 session_refresh_required: a recent sign-in first, at the URL the service named if any. */
  | { kind: "refresh-required"; url?: string }
  /**
   * 410 with a replacement flow, or a 303 to it (recovery retries and expiry); `expired` when
   * the identity service said the old one ran out of time (self_service_flow_expired).
   */
  | { kind: "use-flow"; flowId: string; expired?: boolean }
  /** Sign-in needs a verified address and the identity service named no verification flow. */
  | { kind: "verify-address" }
  | { kind: "restart"; reason: RestartReason }
  | { kind: "session-already-available"; refreshHint?: boolean }
  /**
   * 401: no usable session. `inactive` when the service said session_inactive (spec §8: sign in
   * with refresh=true); `aal1Required` for an aal2 login without any session.
   */
  | { kind: "needs-login"; inactive?: boolean; aal1Required?: boolean }
  /** 2xx that asks for nothing further (e.g. a login without continue_with). */
  | { kind: "success"; body: unknown }
  | {
      kind: "unknown";
      status: number;
      errorId: string | undefined;
      /** error.code of the body, which may differ from the status (spec §8: 400 with code 500). */
      errorCode?: number;
      refreshHint?: boolean;
    };

/** The least a body must have to be rendered as a flow. */
export interface FlowShape {
  id: string;
  ui: { nodes: unknown[] } & Record<string, unknown>;
  [key: string]: unknown;
}

export function isFlowShape(value: unknown): value is FlowShape {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    isRecord(value.ui) &&
    Array.isArray(value.ui.nodes)
  );
}

export interface IdentityAnswer {
  status: number;
  body: unknown;
  location?: string;
}

/** Kratos' answer to JSON clients that must use another flow: 303 to `…/flows?id=<new>`. */
const replacementFlowPath = /\/self-service\/[a-z]+\/flows$/;

/**
 * `fetched`: the answer to reading or creating a flow, not to submitting one. A flow read back
 * after a success may still carry that success's continue_with (e.g. "show the settings page
 * again"); following it from the page that shows the flow would loop, so it is shown instead.
 */
export function classifyIdentityAnswer(
  { status, body, location }: IdentityAnswer,
  options: { fetched?: boolean } = {},
): IdentityOutcome {
  const errorId = errorIdOf(body);
  const redirectTo = isRecord(body)
    ? (stringOr(body.redirect_browser_to) ?? stringOr(errorDetailsOf(body)?.redirect_browser_to))
    : undefined;
  const hint = status === 400 && mentionsRefresh(body) ? { refreshHint: true } : {};

  if (options.fetched === true && status >= 200 && status < 300 && isFlowShape(body)) {
    return { kind: "flow", status, flow: body };
  }
  if (status >= 200 && status < 300) {
    const target = isRecord(body) ? pickContinueWith(body.continue_with) : undefined;
    if (target) return { kind: "continue", target };
    if (isFlowShape(body)) return { kind: "flow", status, flow: body };
    return { kind: "success", body };
  }
  if (isFlowShape(body)) return { kind: "flow", status, flow: body, ...hint };
  if (status >= 300 && status < 400 && location) return followLocation(location);

  switch (status) {
    case 400:
      if (errorId === "session_already_available") {
        return { kind: "session-already-available", ...hint };
      }
      if (errorId === "self_service_flow_return_to_forbidden") {
        return { kind: "restart", reason: "return-to-forbidden" };
      }
      break;
    case 401:
      if (errorId === "session_inactive") return { kind: "needs-login", inactive: true };
      if (errorId === "session_aal1_required") return { kind: "needs-login", aal1Required: true };
      return { kind: "needs-login" };
    case 403:
      if (errorId === "security_csrf_violation") return { kind: "restart", reason: "csrf" };
      if (errorId === "session_verified_address_required") {
        const target = pickContinueWith(errorDetailsOf(body)?.continue_with);
        return target ? { kind: "continue", target } : { kind: "verify-address" };
      }
      if (errorId === "security_identity_mismatch") {
        return { kind: "restart", reason: "identity-mismatch" };
      }
      if (errorId === "session_aal2_required") {
        return redirectTo ? { kind: "aal2-required", url: redirectTo } : { kind: "aal2-required" };
      }
      if (errorId === "session_refresh_required") {
        return redirectTo
          ? { kind: "refresh-required", url: redirectTo }
          : { kind: "refresh-required" };
      }
      break;
    case 404:
      return { kind: "restart", reason: "not-found" };
    case 410: {
      const useFlowId = isRecord(body) ? stringOr(body.use_flow_id) : undefined;
      if (useFlowId) {
        return errorId === "self_service_flow_expired"
          ? { kind: "use-flow", flowId: useFlowId, expired: true }
          : { kind: "use-flow", flowId: useFlowId };
      }
      return { kind: "restart", reason: "expired" };
    }
    case 422:
      if (redirectTo) return { kind: "redirect", url: redirectTo };
      break;
  }
  const errorCode = errorCodeOf(body);
  return {
    kind: "unknown",
    status,
    errorId,
    ...(errorCode === undefined ? {} : { errorCode }),
    ...hint,
  };
}

/**
 * Whether an answer tells the caller to ask again with refresh=true: Kratos' "A valid session
 * was detected … Did you forget to set `?refresh=true`?", as an error or as a flow message.
 */
function mentionsRefresh(body: unknown): boolean {
  if (!isRecord(body)) return false;
  const texts: unknown[] = [];
  if (isRecord(body.error)) texts.push(body.error.reason, body.error.message);
  const messages = isRecord(body.ui) ? body.ui.messages : undefined;
  if (Array.isArray(messages)) {
    for (const message of messages.filter(isRecord)) {
      texts.push(message.text);
      if (isRecord(message.context)) texts.push(message.context.reason);
    }
  }
  return texts.some((text) => typeof text === "string" && text.includes("refresh=true"));
}

function followLocation(location: string): IdentityOutcome {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return { kind: "unknown", status: 303, errorId: undefined };
  }
  const flowId = url.searchParams.get("id");
  if (replacementFlowPath.test(url.pathname) && flowId) return { kind: "use-flow", flowId };
  return { kind: "redirect", url: location };
}

function errorDetailsOf(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return isRecord(body.error.details) ? body.error.details : undefined;
}

function errorCodeOf(body: unknown): number | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return typeof body.error.code === "number" ? body.error.code : undefined;
}

function errorIdOf(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return stringOr(body.error.id);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
