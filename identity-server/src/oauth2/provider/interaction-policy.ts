import { interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";
import { findRememberedLoginSession } from "../challenges/login-sessions.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// oidc-provider skips the login screen when it has a session and the consent screen when the grant
// covers the scopes. Hydra always sends the browser through both apps and only tells them `skip`.
// One extra check per prompt makes oidc-provider do the same: it asks for the prompt unless this
// request already carries the app's answer. With prompt=none the request stays silent, as
// oidc-provider answers it natively; only a login Hydra would remember may then be reused.

const { base, Check } = interactionPolicy;

/** The only reason a login prompt has when Hydra would report skip=true. */
export const visitLoginUi = "hydra_login_ui";
const visitConsentUi = "hydra_consent_ui";

export function hydraInteractionPolicy(
  db: OAuth2Db,
  now: () => Date,
): interactionPolicy.DefaultPolicy {
  const policy = base();

  policy.get("login")?.checks.add(
    new Check(
      visitLoginUi,
      "the login UI answers every login request",
      "login_required",
      async (ctx: KoaContextWithOIDC) => {
        if (ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
        if (!ctx.oidc.prompts.has("none")) return Check.REQUEST_PROMPT;
        const { session } = ctx.oidc;
        if (!session?.accountId) return Check.REQUEST_PROMPT;
        const remembered = await findRememberedLoginSession(
          db,
          session.uid,
          session.accountId,
          now(),
        );
        return remembered ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
      },
    ),
  );

  policy.get("consent")?.checks.add(
    new Check(
      visitConsentUi,
      "the consent UI answers every consent request",
      "consent_required",
      (ctx: KoaContextWithOIDC) => {
        if (ctx.oidc.result?.consent) return Check.NO_NEED_TO_PROMPT;
        // With prompt=none the built-in checks decide against the remembered grant.
        return ctx.oidc.prompts.has("none") ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
      },
    ),
  );

  return policy;
}
