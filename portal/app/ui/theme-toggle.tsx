import { useLocation } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { otherTheme } from "../theme/theme.ts";
import { useTheme } from "../theme/theme-context.tsx";
import { LineIcon } from "./line-icon.tsx";

/**
 * Without JavaScript this is a form: POST /theme sets the cookie and redirects back here.
 * With JavaScript the submit is intercepted and the theme flips in place.
 */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  const { t } = useTranslator();
  const location = useLocation();
  const next = otherTheme(theme);

  return (
    <form
      method="post"
      action="/theme"
      // Floats at the bottom right only where the content column leaves it room (≥ 1024 px,
      // the footer reserving its corner); narrower, it sits in the footer's flow, covering nothing.
      className="lg:fixed lg:right-4 lg:bottom-4 lg:z-30"
      onSubmit={(event) => {
        event.preventDefault();
        setTheme(next);
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="return_to" value={location.pathname + location.search} />
      <button
        type="submit"
        aria-pressed={theme === "dark"}
        className="flex size-11 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-800 shadow-md hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700 dark:focus-visible:outline-blue-300"
      >
        {theme === "dark" ? <SunIcon /> : <MoonIcon />}
        <span className="sr-only">{t("layout.themeDark")}</span>
      </button>
    </form>
  );
}

function MoonIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
      <path d="M21 14.5A9 9 0 0 1 9.5 3a7.5 7.5 0 1 0 11.5 11.5Z" />
    </svg>
  );
}

function SunIcon() {
  return (
    <LineIcon>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </LineIcon>
  );
}
