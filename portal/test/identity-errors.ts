import { vendorJson } from "./vendor-flows.ts";

/**
 * The identity service's error answers to JSON clients, as it writes them (herodot envelope,
 * texts and extra top-level keys of identity-server/src and its README), plus Kratos' own from
 * vendor/ory/flows. `ui` is where the identity service's browser-facing URLs start.
 */
export interface RecordedAnswer {
  status: number;
  body: unknown;
  location?: string;
}

const ui = "http://localhost:3000";
const publicBase = `${ui}/api/kratos`;

const csrfMessage = "the request was rejected to protect you from Cross-Site-Request-Forgery";
const csrfReason =
  "Please retry the flow and optionally clear your cookies. The request was rejected to protect you from Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, and other serious security issues.";
const alreadyLoggedInReason =
  "A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?";

export const identityErrors = {
  /** Settings init without a session (session/errors.ts noActiveSession). */
  sessionInactive: {
    status: 401,
    body: {
      error: {
        id: "session_inactive",
        code: 401,
        status: "Unauthorized",
        reason: "No active session was found in this request.",
        message: "request does not have a valid authentication session",
      },
    },
  },
  /** Settings fetch/submit without a session: 401 without an id. */
  unauthorized: {
    status: 401,
    body: {
      error: {
        code: 401,
        status: "Unauthorized",
        reason: "A valid Ory Session Cookie or Ory Session Token is missing.",
        message: "The request could not be authorized",
      },
    },
  },
  /** An aal2 login submitted without any session (already-logged-in.ts). */
  aal1Required: {
    status: 401,
    body: {
      error: {
        id: "session_aal1_required",
        code: 401,
        status: "Unauthorized",
        reason: "You can not requested a higher AAL (AAL2/AAL3) without an active session.",
        message: "aal2 and aal3 can only be requested if a session exists already",
      },
    },
  },
  /** Settings for an aal1 session of an identity with a second factor (aal-policy.ts). */
  aal2Required: (returnTo?: string): RecordedAnswer => {
    const url = new URL(`${publicBase}/self-service/login/browser`);
    url.searchParams.set("aal", "aal2");
    if (returnTo) url.searchParams.set("return_to", returnTo);
    const redirect = url.toString();
    return {
      status: 403,
      body: {
        error: {
          id: "session_aal2_required",
          code: 403,
          status: "Forbidden",
          reason:
            "An active session was found but it does not fulfill the requested Authenticator Assurance Level. Please verify yourself with a second factor to resolve this issue.",
          details: { redirect_browser_to: redirect },
          message: "Session does not fulfill the requested Authenticator Assurance Level",
        },
        redirect_browser_to: redirect,
      },
    };
  },
  /** Login or registration init with a session (already-logged-in.ts). */
  sessionAlreadyAvailable: {
    status: 400,
    body: {
      error: {
        id: "session_already_available",
        code: 400,
        status: "Bad Request",
        reason: alreadyLoggedInReason,
        message: "you are already logged in",
      },
    },
  },
  /** A settings change that needs a recent sign-in (settings.ts answerReauthentication). */
  refreshRequired: (flowId: string): RecordedAnswer => {
    const login = new URL(`${publicBase}/self-service/login/browser`);
    login.searchParams.set("refresh", "true");
    login.searchParams.set("return_to", `${publicBase}/self-service/settings?flow=${flowId}`);
    return {
      status: 403,
      body: {
        error: {
          id: "session_refresh_required",
          code: 403,
          status: "Forbidden",
          reason:
            "The login session is too old and thus not allowed to update these fields. Please re-authenticate.",
          message: "The requested action was forbidden",
        },
        redirect_browser_to: login.toString(),
      },
    };
  },
  /** A return address outside the allowed list (http/return-to.ts). */
  returnToForbidden: {
    status: 400,
    body: {
      error: {
        id: "self_service_flow_return_to_forbidden",
        code: 400,
        status: "Bad Request",
        reason: 'Requested return_to URL "https://evil.example/" is not allowed.',
        message: "The request was malformed or contained invalid parameters",
      },
    },
  },
  /** A login, registration or settings flow submitted after it expired (flow-errors.ts). */
  flowExpired: (replacementId: string): RecordedAnswer => ({
    status: 410,
    body: {
      error: {
        id: "self_service_flow_expired",
        code: 410,
        status: "Gone",
        reason: "The self-service flow expired 0.25 minutes ago, initialize a new one.",
        message: "self-service flow expired",
      },
      expired_at: "2026-03-02T10:00:00.000Z",
      since: 15_000_000_000,
      use_flow_id: replacementId,
    },
  }),
  /** A settings flow read after it expired: no replacement named. */
  expiredWithoutReplacement: {
    status: 410,
    body: {
      error: {
        id: "self_service_flow_expired",
        code: 410,
        status: "Gone",
        reason: "The self-service flow expired 0.25 minutes ago, initialize a new one.",
        message: "self-service flow expired",
      },
      expired_at: "2026-03-02T10:00:00.000Z",
      since: 15_000_000_000,
    },
  },
  /** A verification flow used after success or failure (verification.ts replaceFlow). */
  flowReplaced: (replacementId: string): RecordedAnswer => ({
    status: 410,
    body: {
      error: {
        id: "self_service_flow_replaced",
        code: 410,
        status: "Gone",
        reason: "The request was already completed successfully and can not be retried.",
        message: "self-service flow replaced",
      },
      use_flow_id: replacementId,
    },
  }),
  /** Recovery and verification answer an expired flow with a 303 to its replacement. */
  replacedBy: (kind: "recovery" | "verification", replacementId: string): RecordedAnswer => ({
    status: 303,
    body: null,
    location: `${publicBase}/self-service/${kind}/flows?id=${replacementId}`,
  }),
  /** The anti-CSRF cookie and token do not match (http/csrf.ts). */
  csrfViolation: {
    status: 403,
    body: {
      error: {
        id: "security_csrf_violation",
        code: 403,
        status: "Forbidden",
        reason: csrfReason,
        details: {
          docs: "https://www.ory.com/docs/troubleshooting/csrf",
          hint: "We detected a regular browser or server-side call. To debug browser calls check your Browser's Network Tab to see what cookies are included or excluded. If you are calling from a server ensure that the appropriate cookies are being forwarded and that the SDK method is called correctly.",
          reject_reason: "The HTTP Cookie Header was set but did not include the anti-CSRF cookie.",
        },
        message: csrfMessage,
      },
    },
  },
  /** A settings flow submitted by another identity (settings.ts identityMismatch). */
  identityMismatch: {
    status: 403,
    body: {
      error: {
        id: "security_identity_mismatch",
        code: 403,
        status: "Forbidden",
        reason:
          "The request was initiated by someone else and has been blocked for security reasons. Please go back and try again.",
        message: "The requested action was forbidden",
      },
    },
  },
  /** A first factor done, the second still missing (identity-server flows/login/complete.ts). */
  locationChange: (url: string): RecordedAnswer => ({
    status: 422,
    body: {
      error: {
        id: "browser_location_change_required",
        code: 422,
        status: "Unprocessable Entity",
        reason: `In order to complete this flow please redirect the browser to: ${url}`,
        message: "browser location change required",
      },
      redirect_browser_to: url,
    },
  }),
  /** Kratos' own 404 for an unknown flow or error id (vendor). */
  notFound: { status: 404, body: vendorJson("kratos.snapshot.error.not-found.json") },
  /** Kratos' own 400 for a disabled flow (vendor): no id, code 400. */
  recoveryDisabled: { status: 400, body: vendorJson("elements.error.recovery-disabled.json") },
  /** A 400 whose error object says 500: the identity service failed inside a flow. */
  internalIn400: {
    status: 400,
    body: {
      error: {
        code: 500,
        status: "Internal Server Error",
        message: "An internal server error occurred, please contact the system administrator",
      },
    },
  },
  serverError: {
    status: 500,
    body: {
      error: {
        code: 500,
        status: "Internal Server Error",
        message: "An internal server error occurred, please contact the system administrator",
      },
    },
  },
} as const;

/**
 * A login flow as a submit with a session answers it: the flow again, with the already-signed-in
 * reason as message 4000001 (flow-errors.ts adds a HerodotError 400's reason so).
 */
export function loginFlowSaying(reason = alreadyLoggedInReason): RecordedAnswer {
  const flow = vendorJson("elements.login.1fa.password.initial.json") as Record<string, unknown>;
  const uiContainer = flow.ui as Record<string, unknown>;
  return {
    status: 400,
    body: {
      ...flow,
      ui: {
        ...uiContainer,
        messages: [{ id: 4000001, text: reason, type: "error", context: { reason } }],
      },
    },
  };
}
