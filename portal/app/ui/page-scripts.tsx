import { Fragment, cloneElement, isValidElement } from "react";
import type { ReactElement, ReactNode } from "react";
import { Scripts } from "react-router";

/**
 * React Router's <Scripts />, with its <link rel="modulepreload"> tags at low fetch priority.
 *
 * React puts those tags in the head, and Chromium fetches them at high priority, beside the
 * stylesheet: on a slow link the page's ~120 kB of JavaScript shares the bandwidth (and HTTP/1.1's
 * six connections) with the 6 kB stylesheet, so the form, which needs only the HTML and the
 * stylesheet to take typing, paints later than the same page without scripts. Lighthouse also
 * counts a high-priority script that arrives before the first paint as render-blocking. At low
 * priority the scripts still load in parallel, after what the first paint needs.
 */
export const PageScripts = import.meta.env.SSR ? LowPriorityScripts : Scripts;

/**
 * Only the server's HTML needs the change: the browser fetches the preloads before it runs a
 * script, and its <Scripts /> renders them only until hydration, so it keeps React Router's
 * component (and the /en/login JavaScript budget, DESIGN §6, these lines).
 */
function LowPriorityScripts() {
  // Called, not rendered, to reach the elements it returns: its hooks belong to this component,
  // in the same order on every render.
  return lowPriorityPreloads(Scripts({}));
}

/** `node` with every modulepreload link, at any depth of fragments and arrays, at low priority. */
function lowPriorityPreloads(node: ReactNode): ReactNode {
  if (Array.isArray(node)) return node.map((child: ReactNode) => lowPriorityPreloads(child));
  if (!isValidElement(node)) return node;
  const element = node as ReactElement<{ rel?: string; children?: ReactNode }>;
  if (element.type === "link" && element.props.rel === "modulepreload") {
    return cloneElement(element as ReactElement<{ fetchPriority?: string }>, {
      fetchPriority: "low",
    });
  }
  if (element.type === Fragment) {
    return cloneElement(element, undefined, lowPriorityPreloads(element.props.children));
  }
  return element;
}
