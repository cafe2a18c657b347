import { Transform } from "node:stream";
import { messages as fieldRules } from "../validation/messages.ts";
import { catalogueFor } from "./catalogues.server.ts";
import type { Locale } from "./locales.ts";
import { pageStringsId, type PageStrings } from "./page-catalogue.ts";
import type { Catalogue } from "./translator.ts";

/**
 * Strings the browser shows without asking the server, sent with every page whose language the
 * render used: the live field checks while the user types, the password fields' show/hide
 * button (rendered once hydrated) and the fingerprint's status (every page, once scripts run). Any other string the browser lacks reads the whole catalogue
 * file (i18n/page-catalogue.ts).
 */
const browserKeys: readonly string[] = [
  ...Object.values(fieldRules).map((rule) => rule.key),
  "form.passwordToggle",
  "session.fingerprint.computing",
];

/**
 * One render's catalogues: whole on the server, noting each key looked up, so the page carries
 * only those strings (a few hundred bytes) and not the language's whole catalogue (~27 kB).
 */
export function createPageStrings() {
  const used = new Map<Locale, Set<string>>();
  const views = new Map<Locale, Catalogue>();
  const read = (locale: Locale): Catalogue => {
    let view = views.get(locale);
    if (!view) {
      const keys = new Set(browserKeys);
      used.set(locale, keys);
      view = new Proxy(catalogueFor(locale), {
        get(target, key, receiver) {
          if (typeof key === "string") keys.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      views.set(locale, view);
    }
    return view;
  };
  const collect = (): PageStrings => {
    const strings: Partial<Record<Locale, Catalogue>> = {};
    const absent = new Set<string>();
    for (const [locale, keys] of used) {
      const catalogue = catalogueFor(locale);
      const page: Record<string, string> = {};
      for (const key of [...keys].sort()) {
        const text = catalogue[key];
        if (text === undefined) absent.add(key);
        else page[key] = text;
      }
      strings[locale] = page;
    }
    return { strings, absent: [...absent] };
  };
  return {
    read,
    /** The strings looked up so far, as an inert JSON script element. */
    script(nonce: string): string {
      // `<` escaped: a string holding "</script>" cannot end the element early.
      const json = JSON.stringify(collect()).replace(/</g, "\\u003c");
      return `<script id="${pageStringsId}" type="application/json" nonce="${nonce}">${json}</script>`;
    },
  };
}

const documentEnd = "</body></html>";

/**
 * Passes the rendered document through, adding `script()` just before `</body></html>`, which
 * React writes last, once every part of the page has rendered (and looked up its strings).
 * What React writes in one go (the whole page, for a page without deferred parts: ~10 writes of
 * 2 kB) goes on as one chunk, a turn of the event loop later: the compression middleware and
 * the socket then see one write per page instead of one per React buffer.
 */
export function beforeDocumentEnd(script: () => string): Transform {
  let pending: Buffer[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const take = (): Buffer => {
    const bytes = Buffer.concat(pending);
    pending = [];
    return bytes;
  };
  return new Transform({
    transform(chunk: Buffer | Uint8Array | string, _encoding, callback) {
      pending.push(Buffer.from(chunk));
      scheduled ??= setImmediate(() => {
        scheduled = undefined;
        if (pending.length > 0) this.push(take());
      });
      callback();
    },
    flush(callback) {
      if (scheduled) clearImmediate(scheduled);
      const rest = take();
      if (rest.subarray(-documentEnd.length).toString() === documentEnd) {
        this.push(
          Buffer.concat([
            rest.subarray(0, -documentEnd.length),
            Buffer.from(script() + documentEnd),
          ]),
        );
      } else {
        // A document cut short (an aborted render) still gets its strings, after what was sent.
        this.push(Buffer.concat([rest, Buffer.from(script())]));
      }
      callback();
    },
  });
}
