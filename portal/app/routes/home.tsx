import { Link, data } from "react-router";
import type { Route } from "./+types/home";
import { setCookieHeaders } from "../http/cookies.server.ts";
import { localeOf } from "../i18n/locales.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { decideHome } from "../session/home-destination.server.ts";
import { Card } from "../ui/card.tsx";
import { PageTitle } from "../ui/page-title.tsx";

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const locale = localeOf(params);
  const decision = await decideHome(request, context, locale, url);
  if (decision.kind === "redirect") return decision.response;
  return data({ pending: "aal2" as const }, { headers: setCookieHeaders(decision.setCookies) });
}

/** Only reached when whoami says a second factor is still missing (403). */
export default function Home() {
  const { t, locale } = useTranslator();
  return (
    <Card>
      <PageTitle title={t("home.aal2Title")} />
      <p className="mt-2">{t("home.aal2Body")}</p>
      <Link
        to={`/${locale}/login?aal=aal2`}
        className="mt-6 inline-block font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300"
      >
        {t("home.aal2Action")}
      </Link>
    </Card>
  );
}
