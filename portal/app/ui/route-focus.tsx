import { useLayoutEffect, useRef } from "react";
import { useLocation } from "react-router";

/** The page itself, without its language prefix: switching language is not a page change. */
export function pageOf(pathname: string): string {
  return pathname.replace(/^\/(?:en|es)(?=\/|$)/, "");
}

/**
 * When a navigation in the browser lands on another page (e.g. a successful sign-up taking the
 * user to verification), focus moves to the new page's heading, so screen readers announce the
 * new page as a document load would. The first render leaves focus to the browser; query-only
 * changes (a second-factor method, a dialog) and language switches keep it where it is.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const page = pageOf(pathname);
  const shown = useRef(page);
  // In the commit that shows the new page, so nothing sees the old focus on the new page.
  useLayoutEffect(() => {
    if (shown.current === page) return;
    shown.current = page;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    heading.focus();
  }, [page]);
  return null;
}
