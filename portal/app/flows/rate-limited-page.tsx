import { useLocation } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Card } from "../ui/card.tsx";
import type { RateLimited } from "./rate-limit-answer.ts";
import { rateLimitText } from "./rate-limit-answer.ts";

/**
 * The page shown (status 429) when the identity service refused to show a flow or session
 * because it is rate-limited: how long to wait, and a link to this same page to try again.
 * Nothing is retried by itself.
 */
export function RateLimitedPage({ limited }: { limited: RateLimited }) {
  const translator = useTranslator();
  const { pathname, search } = useLocation();
  const title = translator.t("rateLimited.title");
  return (
    <Card>
      <title>{`${title} – ${translator.t("brand.name")}`}</title>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2" role="alert">
        {rateLimitText(translator, limited)}
      </p>
      <a
        href={`${pathname}${search}`}
        className="mt-6 inline-block text-blue-700 underline dark:text-blue-300"
      >
        {translator.t("rateLimited.retry")}
      </a>
    </Card>
  );
}
