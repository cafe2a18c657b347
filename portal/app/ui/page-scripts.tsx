import { Fragment, cloneElement, isValidElement } from "react";
import type { ReactElement, ReactNode } from "react";
import { Scripts } from "react-router";
import { deferredScriptsLoader } from "./deferred-scripts.ts";

/**
 * React Router's <Scripts />, whose module scripts the browser starts fetching only once the page
 * has loaded (its HTML and stylesheet: what the form needs to take typing).
 *
 * With React Router's own tags the browser fetched the page's ~120 kB of JavaScript as soon as it
 * read the head's `modulepreload`s. On a slow link (Lighthouse's mobile throttling: 1.6 Mbit/s)
 * those downloads share the bandwidth with the 6 kB stylesheet whatever their fetch priority, and
 * the small chunks that arrive first are compiled on the main thread while the browser lays out
 * the first frame: the first paint and the first keystroke came ~110 ms later than on the same
 * page without scripts (issue 20; the account is in bench/README.md). The first paint needs none
 * of it: without JavaScript the form is a plain POST form.
 */
export const PageScripts = import.meta.env.SSR ? ScriptsAfterLoad : Scripts;

/**
 * Only the server's HTML changes: the browser's <Scripts /> renders the preloads and scripts only
 * until hydration, and keeps React Router's component (and the /en/login JavaScript budget,
 * DESIGN §6, these lines). The module script becomes a classic one in the same place (the same
 * number of <script> elements, so hydration finds the tree it renders) that adds the preloads
 * and the module script after the `load` event.
 */
function ScriptsAfterLoad() {
  // Called, not rendered, to reach the elements it returns: its hooks belong to this component,
  // in the same order on every render.
  const tree = Scripts({});
  const preloads: string[] = [];
  collectPreloads(tree, preloads);
  return afterLoad(tree, preloads);
}

type Props = {
  rel?: string;
  href?: string;
  type?: string;
  nonce?: string;
  children?: ReactNode;
  dangerouslySetInnerHTML?: { __html: string };
};

/** The modulepreload links' addresses in `node`, at any depth of fragments and arrays. */
function collectPreloads(node: ReactNode, into: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node as ReactNode[]) collectPreloads(child, into);
    return;
  }
  if (!isValidElement(node)) return;
  const { props } = node as ReactElement<Props>;
  if (node.type === "link" && props.rel === "modulepreload" && props.href) into.push(props.href);
  if (node.type === Fragment) collectPreloads(props.children, into);
}

/** `node` without its modulepreload links, its module script a loader started after `load`. */
function afterLoad(node: ReactNode, preloads: string[]): ReactNode {
  if (Array.isArray(node)) return node.map((child: ReactNode) => afterLoad(child, preloads));
  if (!isValidElement(node)) return node;
  const element = node as ReactElement<Props>;
  const { props } = element;
  if (element.type === "link" && props.rel === "modulepreload") return null;
  if (element.type === "script" && props.type === "module") {
    const code = props.dangerouslySetInnerHTML?.__html ?? "";
    return (
      <script
        nonce={props.nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: deferredScriptsLoader(preloads, code) }}
      />
    );
  }
  if (element.type === Fragment) {
    return cloneElement(element, undefined, afterLoad(props.children, preloads));
  }
  return element;
}
