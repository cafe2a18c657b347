import { Form } from "react-router";
import type { Route } from "./+types/logout";
import { localeOf } from "../i18n/locales.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { primaryButton, secondaryButton } from "../ui/buttons.ts";
import { Card } from "../ui/card.tsx";
import { ChoiceButtons } from "../ui/choice-buttons.tsx";
import { PageTitle } from "../ui/page-title.tsx";
import { answerLogoutQuestion, loadLogoutQuestion } from "./logout-challenge.server.ts";
import { logoutChallengeParam, logoutDecisionName } from "./logout-fields.ts";
import { loadSignOut, submitSignOut } from "./logout-sign-out.server.ts";
import type { SignOutConfirmation } from "./logout-sign-out.server.ts";

/**
 * Sign-out (the portal's header and settings post here; its own links come here): the identity
 * service's logout, returning to this locale's login page (see logout-sign-out). With a
 * ?logout_challenge= (the OAuth2 service's logout UI) it asks first; see logout-challenge.
 */
export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const locale = localeOf(params);
  const challenge = url.searchParams.get(logoutChallengeParam);
  if (challenge) return loadLogoutQuestion({ request, context, locale, url }, challenge);
  return loadSignOut({ request, context, locale }, url);
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  const locale = localeOf(params);
  const form = await request.formData();
  const answersChallenge =
    form.has(logoutDecisionName) ||
    form.has(logoutChallengeParam) ||
    url.searchParams.has(logoutChallengeParam);
  if (answersChallenge) {
    return answerLogoutQuestion({ request, context, locale, url }, form);
  }
  return submitSignOut({ request, context, locale }, form);
}

/**
 * A logout challenge: "Do you want to sign out of {client}?" Yes / No. A sign-out that did not
 * come from the portal's own page: the same question about the portal.
 */
export default function Logout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslator();
  if ("confirmSignOut" in loaderData) return <ConfirmSignOut confirmation={loaderData} />;
  return (
    <Card>
      <PageTitle title={t("logout.title")} />
      <p className="mt-2 mb-6">
        {loaderData.client
          ? t("logout.question", { client: loaderData.client })
          : t("logout.questionGeneric")}
      </p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name={logoutChallengeParam} value={loaderData.challenge} />
        <ChoiceButtons
          name={logoutDecisionName}
          yes={{ value: "yes", label: t("logout.yes") }}
          no={{ value: "no", label: t("logout.no") }}
        />
      </Form>
    </Card>
  );
}

/**
 * A plain POST form (no JavaScript needed) posting what the link carried; "No" goes to the
 * start page and leaves the session alone.
 */
function ConfirmSignOut({ confirmation }: { confirmation: SignOutConfirmation }) {
  const { t, locale } = useTranslator();
  return (
    <Card>
      <PageTitle title={t("logout.title")} />
      <p className="mt-2 mb-6">{t("logout.question", { client: t("brand.name") })}</p>
      <form method="post" action={`/${locale}/logout`} className="flex flex-col gap-3">
        {Object.entries(confirmation.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={primaryButton}>
          {t("logout.yes")}
        </button>
        <a href={`/${locale}`} className={secondaryButton}>
          {t("logout.no")}
        </a>
      </form>
    </Card>
  );
}
