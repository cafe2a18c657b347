import { readIdentityAnswer } from "@portal/client";
import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/error";
import { isRecord } from "../flows/node-guards.ts";
import { setCookieHeaders } from "../http/cookies.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { localeOf } from "../i18n/locales.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Card } from "../ui/card.tsx";

/** Spec §2 error page: the identity service's stored error, or back to the start. */
export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const locale = localeOf(params);
  const id = url.searchParams.get("id");
  if (!id) return redirect(`/${locale}`);
  const { frontend } = identityFor(request, context);
  const answer = await readIdentityAnswer(() => frontend.getFlowErrorRaw({ id }));
  if ([403, 404, 410].includes(answer.status)) return redirect(`/${locale}`);
  return data(
    { message: answer.status === 200 ? errorMessage(answer.body) : undefined },
    { headers: setCookieHeaders(answer.setCookies) },
  );
}

/** The most readable line of a stored error: its message, else its reason. */
export function errorMessage(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { message, reason } = body.error;
  if (typeof message === "string" && message !== "") return message;
  return typeof reason === "string" && reason !== "" ? reason : undefined;
}

export default function ErrorPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useTranslator();
  return (
    <Card>
      <title>{`${t("error.title")} – ${t("brand.name")}`}</title>
      <h1 className="text-2xl font-semibold">{t("error.title")}</h1>
      <p className="mt-2">{loaderData.message ?? t("error.body")}</p>
      <Link
        to={`/${locale}`}
        className="mt-6 inline-block font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300"
      >
        {t("error.goBack")}
      </Link>
    </Card>
  );
}
