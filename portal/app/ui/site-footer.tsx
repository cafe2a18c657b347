import { useTranslator } from "../i18n/translator-context.tsx";
import { LanguageSelector } from "./language-selector.tsx";
import { ThemeToggle } from "./theme-toggle.tsx";

const buildLabel = "663";

export function SiteFooter(props: { supportUrl: string; year: number }) {
  const { t } = useTranslator();
  return (
    <footer className="border-t border-slate-200 bg-white text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-4 py-4 lg:pr-20">
        <p>{t("layout.copyright", { year: props.year })}</p>
        <a href={props.supportUrl} className="underline underline-offset-4">
          {t("layout.support")}
        </a>
        <LanguageSelector />
        <p>{t("layout.build", { build: buildLabel })}</p>
        {/* Inside the footer landmark; on wide screens it floats at the bottom right. */}
        <ThemeToggle />
      </div>
    </footer>
  );
}
