import { Suspense, lazy, useEffect, useState } from "react";
import type { ComponentType } from "react";

/** A settings card whose code loads apart from the page's scripts, and how the server waits for it. */
export interface LazyCard<P> {
  Component: ComponentType<P>;
  /** Settles once the server holds the card's module (at once in the browser). */
  ready: Promise<void>;
}

/**
 * A settings card that is not part of the page's own scripts (DESIGN §6 budget: the page
 * references only React, the layout and the route's outline; each card's code loads beside the
 * hydration, in parallel, instead of before it).
 *
 * - The server renders the card in the shell from the module it holds (loaded at start-up; the
 *   loader awaits `ready`): the HTML is complete, and the card works as a plain form without
 *   JavaScript.
 * - While the page hydrates, the card sits in a Suspense boundary of its own: the rest of the
 *   page hydrates at once, and the card keeps its server HTML (and whatever was typed into it,
 *   React keeps a field's value while hydrating) until its code has arrived; no fallback shows.
 * - Mounted after hydration (a client navigation to the page), there is no boundary: the
 *   navigation's transition keeps the previous page until the card's code is there, instead of
 *   showing an empty place that fills in.
 *
 * Which of the two is told by the page itself: while hydrating, the server's HTML of the card
 * (its section, `anchor`) is already there. Not a hook whose value changes after hydration
 * (useHydrated): that re-render would reach the boundary before its code arrived, and React would
 * then drop the server's HTML (and what was typed) for the empty fallback.
 */
export function lazyCard<P extends object>(
  anchor: string,
  load: () => Promise<ComponentType<P>>,
): LazyCard<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const code = () => (loading ??= load());
  let held: ComponentType<P> | undefined;
  const ready = import.meta.env.SSR
    ? code().then((component) => {
        held = component;
      })
    : Promise.resolve();
  const Lazy = lazy(() => code().then((component) => ({ default: component })));

  function Card(props: P) {
    const [hydrating] = useState(
      () => import.meta.env.SSR || document.getElementById(anchor) !== null,
    );
    const [arrived, setArrived] = useState(import.meta.env.SSR);
    const Inner = held ?? Lazy;
    const element = hydrating ? (
      <Suspense fallback={null}>
        <Inner {...props} />
      </Suspense>
    ) : (
      <Inner {...props} />
    );
    // Until its code is there, the card renders what it hydrates with, the very same element:
    // a re-render of the page in the meantime (with new props) would otherwise reach the
    // still-dehydrated boundary, and React would drop its HTML for the fallback. Once the code
    // is there, the card renders with the page's props of the moment.
    const [hydratingWith] = useState(element);
    useEffect(() => {
      if (hydrating && !arrived) {
        // A failed download reaches the card's own render, through lazy().
        code().then(
          () => setArrived(true),
          () => undefined,
        );
      }
    }, [hydrating, arrived]);
    return hydrating && !arrived ? hydratingWith : element;
  }
  return { Component: Card, ready };
}
