import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { useTheme } from "../theme/theme-context.tsx";
import { SiteFooter } from "./site-footer.tsx";
import { SiteHeader } from "./site-header.tsx";
import { SpinnerOverlay } from "./spinner-overlay.tsx";
import { ToasterHost } from "./toasts.tsx";

export interface ShellLinks {
  ssoPortalUrl: string;
  supportUrl: string;
  year: number;
}

export function AppShell(props: { links: ShellLinks; children: ReactNode }) {
  const { t } = useTranslator();
  const { theme } = useTheme();
  const navigation = useNavigation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        {t("layout.skipToContent")}
      </a>
      <SiteHeader ssoPortalUrl={props.links.ssoPortalUrl} />
      {/* Cards start at the top and are as tall as their content (no stretched empty panel). */}
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10">
        {props.children}
      </main>
      <SiteFooter supportUrl={props.links.supportUrl} year={props.links.year} />
      <ToasterHost theme={theme} closeLabel={t("toast.close")} />
      {navigation.state !== "idle" && <SpinnerOverlay label={t("layout.loading")} />}
    </div>
  );
}
