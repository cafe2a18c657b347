import { isRouteErrorResponse } from "react-router";
import { rateLimitOf } from "../flows/rate-limit-answer.ts";
import { RateLimitedPage } from "../flows/rate-limited-page.tsx";
import { StartingPage } from "../flows/starting-page.tsx";
import type { MessageKey } from "../i18n/translator.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Card } from "./card.tsx";

/**
 * The root error boundary's page for `error`: rate-limited (429), not found (404), starting
 * (503) or something else. A module of its own, loaded only when a page fails (root.tsx).
 */
export function ErrorPageBody({ error }: { error: unknown }) {
  // The identity service answered 429 (http/rate-limited.server.ts): say how long to wait.
  const limited = rateLimitOf(error);
  if (limited) return <RateLimitedPage limited={limited} />;
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorCard title="notFound.title" body="notFound.body" link="notFound.home" />;
  }
  // A client navigation's `.data` request got the server's 503 starting page (identity down).
  if (isRouteErrorResponse(error) && error.status === 503) return <StartingPage />;
  return <ErrorCard title="error.title" body="error.body" link="error.goBack" />;
}

/** A page that cannot be shown: its title, why, and a link to the start page. */
function ErrorCard(props: { title: MessageKey; body: MessageKey; link: MessageKey }) {
  const { t, locale } = useTranslator();
  return (
    <Card>
      <title>{t(props.title)}</title>
      <h1 className="text-2xl font-semibold">{t(props.title)}</h1>
      <p className="mt-2">{t(props.body)}</p>
      <a
        href={`/${locale}`}
        className="mt-6 inline-block text-blue-700 underline dark:text-blue-300"
      >
        {t(props.link)}
      </a>
    </Card>
  );
}
