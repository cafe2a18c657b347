import type { Catalogue } from "./translator.ts";

/** How catalogues are read over the network. */
export interface ReadPolicy {
  /** Reads in flight at once; more wait for a free slot. */
  parallel: number;
  /** Further attempts after a failed read. */
  retries: number;
  /** Wait before the first retry; each further retry waits twice as long. */
  firstRetryMs: number;
}

/** Spec §9 "Translation reads": up to 10 parallel, up to 5 retries, from 350 ms doubling. */
export const translationReads: ReadPolicy = { parallel: 10, retries: 5, firstRetryMs: 350 };

/** A read the server refused for good (4xx other than 408/429): retrying cannot help. */
class RefusedRead extends Error {}

export interface CatalogueLoader {
  /** The catalogue at `url`, read once; concurrent calls share the read. */
  load(url: string): Promise<Catalogue>;
}

/**
 * Reads catalogues (flat JSON objects of strings) with the spec's limits. A read that fails
 * (network error, 5xx, 408, 429, a body that is not a catalogue) is tried again after 350 ms,
 * 700 ms, 1.4 s … up to `retries` times; a waiting retry does not hold a read slot.
 */
export function createCatalogueLoader(
  read: (url: string) => Promise<Response>,
  policy: ReadPolicy = translationReads,
): CatalogueLoader {
  let active = 0;
  const queue: Array<() => void> = [];
  const pending = new Map<string, Promise<Catalogue>>();

  const acquire = async () => {
    if (active < policy.parallel) {
      active++;
      return;
    }
    // The slot is handed over by release(), so `active` never exceeds the limit.
    await new Promise<void>((resolve) => queue.push(resolve));
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };

  const readOnce = async (url: string): Promise<Catalogue> => {
    await acquire();
    try {
      const response = await read(url);
      if (!response.ok) {
        const retryable = response.status >= 500 || [408, 429].includes(response.status);
        const message = `reading ${url} answered ${response.status}`;
        throw retryable ? new Error(message) : new RefusedRead(message);
      }
      const body: unknown = await response.json();
      if (!isCatalogue(body)) throw new Error(`${url} is not a catalogue`);
      return body;
    } finally {
      release();
    }
  };

  const readWithRetries = async (url: string): Promise<Catalogue> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await readOnce(url);
      } catch (error) {
        if (error instanceof RefusedRead || attempt >= policy.retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, policy.firstRetryMs * 2 ** attempt));
      }
    }
  };

  return {
    load(url) {
      let loading = pending.get(url);
      if (!loading) {
        loading = readWithRetries(url);
        pending.set(url, loading);
        // A failed read may be asked for again later; a good one is kept.
        loading.catch(() => pending.delete(url));
      }
      return loading;
    },
  };
}

function isCatalogue(value: unknown): value is Catalogue {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((text) => typeof text === "string")
  );
}
