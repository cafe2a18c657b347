import { randomBytes } from "node:crypto";

/** What the demo remembers about a sign-in: the ID token's claims and the userinfo answer. */
export interface DemoSession {
  claims: Record<string, unknown>;
  userinfo: Record<string, unknown>;
  /** Kept for RP-initiated logout (`id_token_hint`). */
  idToken: string;
  expiresAt: number;
}

// Sessions live in memory: the demo runs as one process and forgetting everyone on restart is
// acceptable for a stand-in agency product.
const sessionLifetimeMs = 8 * 60 * 60 * 1000;

export class SessionStore {
  #sessions = new Map<string, DemoSession>();
  #now: () => number;

  constructor(now = () => Date.now()) {
    this.#now = now;
  }

  create(session: Omit<DemoSession, "expiresAt">): string {
    this.#sweep();
    const id = randomBytes(32).toString("base64url");
    this.#sessions.set(id, { ...session, expiresAt: this.#now() + sessionLifetimeMs });
    return id;
  }

  get(id: string | undefined): DemoSession | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (session && session.expiresAt <= this.#now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  delete(id: string | undefined): void {
    if (id) this.#sessions.delete(id);
  }

  /** Drops expired sessions so abandoned ones do not pile up. */
  #sweep(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions) {
      if (session.expiresAt <= now) this.#sessions.delete(id);
    }
  }
}
