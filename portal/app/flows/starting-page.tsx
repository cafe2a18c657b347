import { useLocation } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Card } from "../ui/card.tsx";
import { PageTitle } from "../ui/page-title.tsx";

/**
 * The "Starting…" page inside the app, for a client-side navigation whose `.data` request got
 * the server's 503 starting page (http/starting-page.server.ts): React Router turns that answer
 * into a route error response of status 503, which the root error boundary shows as this rather
 * than "Something went wrong". The link reloads the address asked for, as the server's page does.
 */
export function StartingPage() {
  const { t } = useTranslator();
  const { pathname, search } = useLocation();
  return (
    <Card>
      <PageTitle title={t("starting.title")} />
      <p className="mt-2">{t("starting.body")}</p>
      <a
        href={`${pathname}${search}`}
        className="mt-6 inline-block text-blue-700 underline dark:text-blue-300"
      >
        {t("starting.retry")}
      </a>
    </Card>
  );
}
