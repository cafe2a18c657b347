import { readIdentityResponse } from "@portal/client";
import { Form } from "react-router";
import type { Route } from "./+types/logout";
import { getConfig } from "../config.server.ts";
import { browserFacingUrl } from "../http/browser-facing-url.server.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { localeOf } from "../i18n/locales.ts";
import { forgetAccount } from "./login/remembered-account.server.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { primaryButton, secondaryButton } from "../ui/buttons.ts";
import { Card } from "../ui/card.tsx";
import { answerLogoutQuestion, loadLogoutQuestion } from "./logout-challenge.server.ts";
import { afterSignOut } from "./logout-destination.ts";
import { logoutChallengeParam, logoutDecisionName } from "./logout-fields.ts";

/**
 * Sign-out link target (the SSO portal and the portal's header link here): ask the identity
 * service for a logout URL that returns to this locale's login page (see afterSignOut), then
 * send the browser there. With a
 * ?logout_challenge= (the OAuth2 service's logout UI) it asks first; see logout-challenge.
 */
export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const locale = localeOf(params);
  const challenge = url.searchParams.get(logoutChallengeParam);
  if (challenge) return loadLogoutQuestion({ request, context, locale, url }, challenge);
  const config = getConfig();
  const { frontend } = identityFor(request, context);
  const next = afterSignOut(locale, url.searchParams);
  const result = await readIdentityResponse(() =>
    frontend.createBrowserLogoutFlowRaw({ returnTo: `${config.publicUrl}${next}` }),
  );
  // The second-factor screen's note of the account goes with the session.
  const setCookies = [...result.setCookies, forgetAccount(config.publicUrl.startsWith("https:"))];
  if (!result.ok) return redirectWithCookies(next, setCookies);
  return redirectWithCookies(browserFacingUrl(result.data.logout_url), setCookies, {
    document: true,
  });
}

export function action({ request, context, params, url }: Route.ActionArgs) {
  return answerLogoutQuestion({ request, context, locale: localeOf(params), url });
}

/** Rendered only for a logout challenge: "Do you want to sign out of {client}?" Yes / No. */
export default function Logout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslator();
  const title = t("logout.title");
  return (
    <Card>
      <title>{`${title} – ${t("brand.name")}`}</title>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 mb-6">
        {loaderData.client
          ? t("logout.question", { client: loaderData.client })
          : t("logout.questionGeneric")}
      </p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name={logoutChallengeParam} value={loaderData.challenge} />
        <button type="submit" name={logoutDecisionName} value="yes" className={primaryButton}>
          {t("logout.yes")}
        </button>
        <button type="submit" name={logoutDecisionName} value="no" className={secondaryButton}>
          {t("logout.no")}
        </button>
      </Form>
    </Card>
  );
}
