import { useTranslator } from "../../i18n/translator-context.tsx";
import { linkStyle } from "../../ui/text-link.tsx";
import { SignOutButton } from "../sign-out-button.tsx";

/**
 * The links under a refresh or second-factor sign-in: use a different account (signs out, then
 * comes back to a fresh sign-in) and, on a refresh, cancel. A chunk of its own: a plain sign-in
 * never shows them (DESIGN §6 budget).
 */
export function OtherAccountLinks(props: { refresh: boolean; returnTo: string | undefined }) {
  const { t, locale } = useTranslator();
  return (
    <div className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm">
      {/* Signs out (a POST: a GET of /logout only asks), then comes back to a fresh sign-in
          (the logout route returns here). */}
      <SignOutButton buttonProps={{ "data-exit": true }} className={linkStyle}>
        {t("login.useDifferentAccount")}
      </SignOutButton>
      {props.refresh && (
        <a href={props.returnTo || `/${locale}`} data-exit className={linkStyle}>
          {t("login.cancel")}
        </a>
      )}
    </div>
  );
}
