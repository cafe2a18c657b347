import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { deferredScriptsLoader, deferredScriptsOf } from "./deferred-scripts.ts";

// Issue 20: the page's JavaScript must not compete with its HTML and stylesheet for a slow link
// (the form takes typing without it), so the server's HTML starts fetching it only after `load`.

const preloads = ["/assets/entry.client-a.js", "/assets/vendor-b.js"];
const moduleCode =
  'import * as route0 from "/assets/root-c.js";\nimport("/assets/entry.client-a.js");';

/**
 * Runs the loader as the parser would, while the document is still loading: its own element (with
 * the page's nonce) as `document.currentScript`; returns what fires the page's `load` event.
 */
function runWhileLoading(code = moduleCode): () => void {
  const own = document.createElement("script");
  own.nonce = "abc";
  document.body.append(own);
  const onLoad: (() => void)[] = [];
  const loadingDocument = {
    readyState: "loading",
    head: document.head,
    currentScript: own,
    createElement: (name: string) => document.createElement(name),
  };
  const addEventListener = (type: string, listener: () => void) => {
    if (type === "load") onLoad.push(listener);
  };
  const source = deferredScriptsLoader(preloads, code);
  // The loader's globals are the document and `addEventListener` of the page it runs in.
  runInNewContext(source, { document: loadingDocument, addEventListener });
  return () => {
    for (const listener of onLoad) listener();
  };
}

/** What the loader added: preloads' addresses and module scripts' code, in document order. */
const added = () =>
  [...document.head.querySelectorAll('link[rel="modulepreload"], script[type="module"]')].map(
    (element) => element.getAttribute("href") ?? element.textContent,
  );

afterEach(() => {
  document.head.replaceChildren();
  document.body.replaceChildren();
});

describe("the deferred scripts loader", () => {
  it("adds no module preload or module script while the page is loading", () => {
    runWhileLoading();
    expect(added()).toEqual([]);
  });

  it("adds the preloads, then the module script with the page's nonce, on the load event", () => {
    const load = runWhileLoading();
    load();
    expect(added()).toEqual([...preloads, moduleCode]);
    const script = document.head.querySelector<HTMLScriptElement>('script[type="module"]');
    expect(script?.nonce).toBe("abc");
  });

  it("keeps a module script's </script> inside the element the server writes", () => {
    const source = deferredScriptsLoader(preloads, 'window.x = "</script><p>";');
    expect(source).not.toContain("</script>");
    expect(source).not.toContain("<p>");
    const load = runWhileLoading('window.x = "</script><p>";');
    load();
    expect(added().at(-1)).toBe('window.x = "</script><p>";');
  });

  it("names the scripts it will fetch for the JavaScript budget's count", () => {
    const html = `<script nonce="n">${deferredScriptsLoader(preloads, moduleCode)}</script>`;
    expect(deferredScriptsOf(html)).toEqual([...preloads, "/assets/root-c.js"]);
  });
});
