import { Form } from "react-router";
import { useTranslator } from "../../i18n/translator-context.tsx";
import type { MessageKey } from "../../i18n/translator.ts";
import { Alert } from "../../ui/alert.tsx";
import { primaryButton } from "../../ui/buttons.ts";
import { Card } from "../../ui/card.tsx";
import { PageTitle } from "../../ui/page-title.tsx";
import { linkStyle } from "../../ui/text-link.tsx";
import { SignOutButton } from "../sign-out-button.tsx";

/** The offer as the page receives it (continue-as.server's ContinueAsOffer). */
interface Offer {
  subject: string;
  account: string;
  csrfToken: string;
  challenge: string;
}

/**
 * An OAuth2 login met the portal's own session: one button continues as that account, another
 * signs out and starts the same application's sign-in again for someone else. A plain POST
 * form, so it works without JavaScript.
 */
export function ContinueAs(props: {
  offer: Offer;
  client: string | undefined;
  refusal: MessageKey | undefined;
}) {
  const { t } = useTranslator();
  const { offer } = props;
  return (
    <Card>
      <PageTitle title={t("login.continueAs.title")} />
      <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">
        {props.client
          ? t("login.oauth2Description", { client: props.client })
          : t("login.description")}
      </p>
      {props.refusal && (
        <Alert status="error" title={t("login.failedTitle")}>
          <p>{t(props.refusal)}</p>
        </Alert>
      )}
      <Form method="post">
        <input type="hidden" name="csrf_token" value={offer.csrfToken} />
        <button type="submit" name="continue_as" value={offer.subject} className={primaryButton}>
          <span className="min-w-0 break-words">
            {t("login.continueAs.button", { account: offer.account })}
          </span>
        </button>
      </Form>
      <div className="mt-4 text-sm">
        {/* A document POST: the sign-out passes through the identity service. */}
        <SignOutButton fields={{ login_challenge: offer.challenge }} className={linkStyle}>
          {t("login.continueAs.another")}
        </SignOutButton>
      </div>
    </Card>
  );
}
