// Bearer tokens already verified, so a client sending the same token on every request pays for
// the signature check once, not per request. Keyed by a SHA-256 of the token (never the token
// itself); an entry lapses at the token's own `exp` (or after TTL_MS for a token without one),
// so a cached token expires exactly when a fresh verification would refuse it.

import { createHash } from 'node:crypto';
import { LapsingEntries } from './lapsing-entries.ts';

const TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 10_000;

export class VerifiedTokens {
  /** SHA-256(token) → the user it names and when the entry lapses (ms). */
  readonly #entries = new LapsingEntries<{ user: string; until: number }>(MAX_ENTRIES);

  /** The user a token verified earlier names, if it has not lapsed at `now` (ms). */
  get(token: string, now: number): string | undefined {
    return this.#entries.get(keyOf(token), now)?.user;
  }

  /** Remembers a token that verified at `now`; `exp` is its claim (seconds), if it has one. */
  remember(token: string, user: string, now: number, exp: number | undefined): void {
    const until = Math.min(now + TTL_MS, typeof exp === 'number' ? exp * 1000 : Infinity);
    this.#entries.set(keyOf(token), { user, until }, now);
  }

  get size(): number {
    return this.#entries.size;
  }
}

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
