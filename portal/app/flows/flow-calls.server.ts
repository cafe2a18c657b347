import type { ApiResponse, IdentityClient } from "@portal/client";
import type { FlowPage } from "./follow-outcome.server.ts";

type Frontend = IdentityClient["frontend"];

/**
 * Creates a flow page's browser flow with what the page URL asks for: where to return to, and
 * for sign-in and sign-up an OAuth2 login challenge (registering in the middle of an OAuth2
 * sign-in completes that sign-in, as Kratos accepts), for sign-in also refresh and aal.
 */
export function createFlow(
  frontend: Frontend,
  page: FlowPage,
  query: URLSearchParams,
): Promise<ApiResponse<unknown>> {
  const returnTo = query.get("return_to") ?? undefined;
  const loginChallenge = query.get("login_challenge") ?? undefined;
  const refresh = query.get("refresh") === "true" ? true : undefined;
  const aal = query.get("aal") ?? undefined;
  const calls: Record<FlowPage, () => Promise<ApiResponse<unknown>>> = {
    login: () => frontend.createBrowserLoginFlowRaw({ refresh, aal, returnTo, loginChallenge }),
    registration: () => frontend.createBrowserRegistrationFlowRaw({ returnTo, loginChallenge }),
    recovery: () => frontend.createBrowserRecoveryFlowRaw({ returnTo }),
    verification: () => frontend.createBrowserVerificationFlowRaw({ returnTo }),
    settings: () => frontend.createBrowserSettingsFlowRaw({ returnTo }),
  };
  return calls[page]();
}

/** Reads a flow page's flow by its id. */
export function getFlow(frontend: Frontend, page: FlowPage, id: string) {
  const calls: Record<FlowPage, () => Promise<ApiResponse<unknown>>> = {
    login: () => frontend.getLoginFlowRaw({ id }),
    registration: () => frontend.getRegistrationFlowRaw({ id }),
    recovery: () => frontend.getRecoveryFlowRaw({ id }),
    verification: () => frontend.getVerificationFlowRaw({ id }),
    settings: () => frontend.getSettingsFlowRaw({ id }),
  };
  return calls[page]();
}
