// Bearer tokens already verified, so a client sending the same token on every request pays for
// the signature check once, not per request. Keyed by a SHA-256 of the token (never the token
// itself); an entry lapses at the token's own `exp` (or after TTL_MS for a token without one),
// so a cached token expires exactly when a fresh verification would refuse it.

import { createHash } from 'node:crypto';

const TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 10_000;

export class VerifiedTokens {
  /** SHA-256(token) → the user it names and when the entry lapses (ms). Insertion order is age. */
  readonly #entries = new Map<string, { user: string; until: number }>();

  /** The user a token verified earlier names, if it has not lapsed at `now` (ms). */
  get(token: string, now: number): string | undefined {
    const key = keyOf(token);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.user;
  }

  /** Remembers a token that verified at `now`; `exp` is its claim (seconds), if it has one. */
  remember(token: string, user: string, now: number, exp: number | undefined): void {
    const until = Math.min(now + TTL_MS, typeof exp === 'number' ? exp * 1000 : Infinity);
    if (until <= now) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#evict(now);
    this.#entries.set(keyOf(token), { user, until });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops lapsed entries; if none had lapsed, the oldest tenth. */
  #evict(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(key);
    if (this.#entries.size < MAX_ENTRIES) return;
    let drop = Math.ceil(MAX_ENTRIES / 10);
    for (const key of this.#entries.keys()) {
      if (drop-- <= 0) break;
      this.#entries.delete(key);
    }
  }
}

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
