import { useTranslator } from "../i18n/translator-context.tsx";

/**
 * The sign-out button, as a plain POST form, with or without JavaScript: the sign-out passes
 * through the identity service, and another site cannot sign anyone out with a link
 * (routes/logout-sign-out).
 */
export function SignOutForm(props: { className: string; buttonClassName: string }) {
  const { t, locale } = useTranslator();
  return (
    <form method="post" action={`/${locale}/logout`} className={props.className}>
      <button type="submit" className={props.buttonClassName}>
        {t("layout.signOut")}
      </button>
    </form>
  );
}
