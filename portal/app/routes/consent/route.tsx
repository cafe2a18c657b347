import { Form } from "react-router";
import type { Route } from "./+types/route";
import { localeOf } from "../../i18n/locales.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Card } from "../../ui/card.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { ChoiceButtons } from "../../ui/choice-buttons.tsx";
import { loadConsent, submitConsent } from "./consent.server.ts";
import { challengeParam, decisionName, rememberName } from "./fields.ts";
import { scopeText } from "./scopes.ts";

export function loader({ request, context, params, url }: Route.LoaderArgs) {
  return loadConsent({ request, context, locale: localeOf(params), url });
}

export function action({ request, context, params, url }: Route.ActionArgs) {
  return submitConsent({ request, context, locale: localeOf(params), url });
}

const linkClass = "text-blue-700 underline underline-offset-4 dark:text-blue-300";

/**
 * Spec §2 consent (Hydra's consent UI): which application asks for what, with Allow / Deny and
 * "remember my decision". A plain form: it works without JavaScript.
 */
export default function Consent({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslator();
  const { client, scopes, challenge } = loaderData;
  const title = t("consent.title");
  return (
    <Card>
      <title>{`${title} – ${t("brand.name")}`}</title>
      {client.logo && (
        <img
          src={client.logo}
          alt={t("consent.logo", { client: client.name })}
          className="mb-4 h-12 w-auto"
        />
      )}
      <h1 className="text-2xl font-semibold">{title}</h1>
      {scopes.length > 0 ? (
        <>
          <p id="consent-intro" className="mt-2">
            {t("consent.intro", { client: client.name })}
          </p>
          <ul aria-labelledby="consent-intro" className="mt-2 mb-6 list-disc space-y-1 pl-6">
            {scopes.map((scope) => (
              <li key={scope}>{scopeText(scope, t)}</li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-2 mb-6">{t("consent.noScopes", { client: client.name })}</p>
      )}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name={challengeParam} value={challenge} />
        <Checkbox
          id="consent-remember"
          name={rememberName}
          value="true"
          label={t("consent.remember")}
          className="mb-2"
        />
        <ChoiceButtons
          name={decisionName}
          yes={{ value: "allow", label: t("consent.allow") }}
          no={{ value: "deny", label: t("consent.deny") }}
        />
      </Form>
      {(client.policy || client.tos) && (
        <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {client.policy && (
            <a href={client.policy} rel="noreferrer" className={linkClass}>
              {t("consent.policy", { client: client.name })}
            </a>
          )}
          {client.tos && (
            <a href={client.tos} rel="noreferrer" className={linkClass}>
              {t("consent.tos", { client: client.name })}
            </a>
          )}
        </p>
      )}
    </Card>
  );
}
