// OWASP's "device cookies" for OAuth2 clients: a client has no cookie jar, but it calls from a
// few stable addresses. A (client id, IP) pair that has authenticated with the right secret is
// remembered for a day after its last success, so guesses from other addresses, which anyone can
// send because client ids are public, cannot use up the budget that pair is checked against. It
// only says "this address knew the secret once"; the secret is still checked on every request.

/** How long a pair stays known after its last successful authentication (sliding). */
export const knownClientAddressTtlMs = 24 * 60 * 60_000;
/** At most this many pairs; the least recently used goes first. */
const knownClientAddressMaxEntries = 10_000;

export class KnownClientAddresses {
  readonly #now: () => number;
  readonly #maxEntries: number;
  // Insertion order is recency order: a pair is re-inserted on every success.
  readonly #expiresAt = new Map<string, number>();

  constructor(now: () => number, maxEntries = knownClientAddressMaxEntries) {
    this.#now = now;
    this.#maxEntries = maxEntries;
  }

  /** Whether this address authenticated as this client within the last day. */
  has(clientId: string, ip: string): boolean {
    const key = keyOf(clientId, ip);
    const expiresAt = this.#expiresAt.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > this.#now()) return true;
    this.#expiresAt.delete(key);
    return false;
  }

  /** After a successful authentication: (re)starts the pair's day and makes it the most recent. */
  remember(clientId: string, ip: string): void {
    const key = keyOf(clientId, ip);
    this.#expiresAt.delete(key);
    while (this.#expiresAt.size >= this.#maxEntries) {
      const oldest = this.#expiresAt.keys().next();
      if (oldest.done) break;
      this.#expiresAt.delete(oldest.value);
    }
    this.#expiresAt.set(key, this.#now() + knownClientAddressTtlMs);
  }

  /** How many pairs are remembered (for tests). */
  get size(): number {
    return this.#expiresAt.size;
  }
}

function keyOf(clientId: string, ip: string): string {
  // JSON keeps the two parts apart whatever characters the client id contains.
  return JSON.stringify([clientId, ip]);
}
