/**
 * A settings change that needs a recently authenticated session (Kratos' FlowNeedsReAuth); the
 * settings handler answers with where to sign in again.
 */
export class ReauthenticationRequired extends Error {
  constructor() {
    super("The login session is too old and thus not allowed to update these fields.");
    this.name = "ReauthenticationRequired";
  }
}
