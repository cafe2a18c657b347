import { lazy } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";

/**
 * The sign-out button shows only while a session exists: signed-out pages (the sign-in page
 * among them) never load it (DESIGN §6 budget). No <Suspense>: the server's shell waits for it,
 * so the HTML holds the button without JavaScript, and hydration keeps that HTML meanwhile.
 */
const SignOutForm = lazy(() =>
  import("./sign-out-form.tsx").then((module) => ({ default: module.SignOutForm })),
);

/** What the locale layout's loader tells every page (routes/locale-layout). */
interface LayoutData {
  signedIn?: boolean;
}

export function SiteHeader(props: { ssoPortalUrl: string }) {
  const { t, locale } = useTranslator();
  const layout = useRouteLoaderData<LayoutData>("routes/locale-layout");
  const signedIn = layout?.signedIn === true;
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
        <Link to={`/${locale}`} className="flex items-center gap-2 font-semibold">
          <Logo />
          <span>{t("brand.name")}</span>
        </Link>
        <div className="flex flex-wrap items-center justify-end gap-2">
          <a
            href={`${props.ssoPortalUrl}/agency-selection`}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            {t("layout.backToPortal")}
          </a>
          {signedIn && (
            <SignOutForm
              className="contents"
              buttonClassName="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            />
          )}
        </div>
      </div>
    </header>
  );
}

function Logo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
      <rect width="32" height="32" rx="8" className="fill-blue-700 dark:fill-blue-300" />
      <path
        d="M16 6l8 3v6c0 5.2-3.4 9.4-8 11-4.6-1.6-8-5.8-8-11V9l8-3z"
        className="fill-white dark:fill-slate-900"
      />
    </svg>
  );
}
