/**
 * The classic inline script that stands in the server's HTML for React Router's module script
 * (ui/page-scripts.tsx): once the page has loaded, it adds the module preloads to the head and
 * then the module script itself (the route modules' imports and `import(entry.client)`), with the
 * page's CSP nonce. Until then the browser fetches no JavaScript, so the HTML, the stylesheet and
 * the first frame have the link and the main thread to themselves.
 */

/** What the loader is given: the preloads' addresses and the module script's code. */
interface DeferredScripts {
  preloads: string[];
  module: string;
}

// `me` is the loader's own element, read while it runs: its nonce property (the attribute is
// hidden from the page once parsed) lets the module script pass the page's script-src.
const loader = `(function (me, job) {
  function start() {
    var head = document.head;
    job.preloads.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      head.appendChild(link);
    });
    var script = document.createElement("script");
    script.type = "module";
    script.nonce = me.nonce;
    script.textContent = job.module;
    head.appendChild(script);
  }
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
})`;

/** The loader's source, with its data in JSON that cannot end the <script> element early. */
export function deferredScriptsLoader(preloads: string[], module: string): string {
  const job: DeferredScripts = { preloads, module };
  return `${loader}(document.currentScript, ${jsonInScript(job)});`;
}

/** JSON where `<` is escaped, so `</script>` or `<!--` in a string stays inside the element. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * The scripts a page's loader will fetch: its preloads and its module script's static imports
 * (for the JavaScript budget's count of what the HTML references, portal/scripts/measure-js.ts).
 */
export function deferredScriptsOf(html: string): string[] {
  const files: string[] = [];
  for (const match of html.matchAll(/\(document\.currentScript, (\{.*?\})\);<\/script>/g)) {
    const job = JSON.parse(match[1] ?? "{}") as Partial<DeferredScripts>;
    files.push(...(job.preloads ?? []));
    for (const [, file] of (job.module ?? "").matchAll(/import[^"'()]*["']([^"']+\.js)["']/g)) {
      if (file) files.push(file);
    }
  }
  return files;
}
