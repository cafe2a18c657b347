import type { ReactNode } from "react";
import { useTranslator } from "../i18n/translator-context.tsx";

/**
 * A link-styled button that signs out with a plain POST of the portal's sign-out form (works
 * without JavaScript). A GET of /logout never signs out (it asks first, logout-sign-out), so
 * every instant sign-out on the portal's own pages is this form: `fields` are the carried fields
 * (logout-fields) that say where the browser lands afterwards.
 */
export function SignOutButton(props: {
  fields?: Record<string, string>;
  className: string;
  /** Extra attributes for the button (the login page's data-exit marker). */
  buttonProps?: Record<string, string | boolean>;
  children: ReactNode;
}) {
  const { locale } = useTranslator();
  return (
    <form method="post" action={`/${locale}/logout`} className="contents">
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={props.className} {...props.buttonProps}>
        {props.children}
      </button>
    </form>
  );
}
