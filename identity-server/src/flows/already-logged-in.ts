import { HerodotError } from "../http/errors.ts";

export function alreadyLoggedInForLogin(): HerodotError {
  return new HerodotError(400, {
    id: "session_already_available",
    message: "you are already logged in",
    reason:
      "A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?",
  });
}

export function alreadyLoggedInForRegistration(): HerodotError {
  return new HerodotError(400, {
    id: "session_already_available",
    message: "you are already logged in",
    reason: "A valid session was detected and thus registration is not possible.",
  });
}

export function alreadyLoggedInForRecovery(): HerodotError {
  return new HerodotError(400, {
    id: "session_already_available",
    reason: "A valid session was detected and thus recovery is not possible.",
  });
}

export function sessionRequiredForHigherAal(): HerodotError {
  return new HerodotError(401, {
    id: "session_aal1_required",
    message: "aal2 and aal3 can only be requested if a session exists already",
    reason: "You can not requested a higher AAL (AAL2/AAL3) without an active session.",
  });
}
