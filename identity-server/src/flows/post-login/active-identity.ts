import { HerodotError } from "../../http/errors.ts";
import type { Identity } from "../../identity/identity.ts";

/** Kratos refuses a disabled identity after its credentials were checked (4010011 in the flow). */
export function requireActiveIdentity(identity: Identity): void {
  if (identity.state !== "active") {
    throw new HerodotError(400, {
      id: "identity_disabled",
      message: "identity is disabled",
      reason: "This account was disabled.",
    });
  }
}
