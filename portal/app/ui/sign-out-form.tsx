import { useTranslator } from "../i18n/translator-context.tsx";

/**
 * The portal's sign-out control: a plain POST form, so it works without JavaScript and another
 * site cannot sign anyone out with a link (routes/logout-sign-out). The form is a document
 * navigation with JavaScript too: the sign-out passes through the identity service.
 */
export function SignOutForm(props: { className: string }) {
  const { t, locale } = useTranslator();
  return (
    <form method="post" action={`/${locale}/logout`} className="contents">
      <button type="submit" className={props.className}>
        {t("layout.signOut")}
      </button>
    </form>
  );
}
