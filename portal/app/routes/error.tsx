import { readIdentityAnswer } from "@portal/client";
import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/error";
import { setCookieHeaders } from "../http/cookies.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { isOAuth2Problem, oauth2ProblemParam } from "../http/oauth2-answer.server.ts";
import { localeOf } from "../i18n/locales.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Card } from "../ui/card.tsx";
import { PageTitle } from "../ui/page-title.tsx";

/** Answers of GET /self-service/errors that mean "nothing to show": back to the start. */
const goneStatuses = [403, 404, 410];

/**
 * Spec §2 error page: the identity service stores errors of browser (HTML) requests and sends the
 * browser here with ?id=. Unknown, foreign or expired ids go to the start page; anything else is
 * "something went wrong" in the page's language (the stored text is English and technical).
 */
export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const locale = localeOf(params);
  // The consent and logout pages send the browser here when an OAuth2 request cannot go on.
  const problem = url.searchParams.get(oauth2ProblemParam);
  if (isOAuth2Problem(problem)) return data({ problem } as const);
  const id = url.searchParams.get("id");
  if (!id) return redirect(`/${locale}`);
  const { frontend } = identityFor(request, context);
  const answer = await readIdentityAnswer(() => frontend.getFlowErrorRaw({ id }));
  const headers = setCookieHeaders(answer.setCookies);
  if (goneStatuses.includes(answer.status)) return redirect(`/${locale}`, { headers });
  return data({ problem: undefined }, { headers });
}

export default function ErrorPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useTranslator();
  const problem = loaderData.problem;
  return (
    <Card>
      <PageTitle title={t("error.title")} />
      <p className="mt-2">{t(problem ? `error.oauth2.${problem}` : "error.body")}</p>
      <Link
        to={`/${locale}`}
        className="mt-6 inline-block font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300"
      >
        {t("error.goBack")}
      </Link>
    </Card>
  );
}
