// Identities an Authorization header has already proven (issue #13). Proving one is the
// expensive part of a request: Basic reads the directory and checks a password (scrypt on
// first sight), Bearer decodes and verifies a JWT and reads the directory; a client sends the
// same header on every request. So the identity is remembered, and a request that sends the
// header again pays one hash and one map lookup.
//
// Held: keyed hash of (header, origin) → the identity, the store generation it was proven at,
// and when it lapses. Used only while the store's generation has not moved — every directory,
// password, app or disabled-account change invalidates a cached entry and so moves it — and
// never past its deadline: a token's own `exp` (or 10 minutes), Basic 5 minutes. A refusal
// (401) is never remembered.
//
// The key is SHA-256 of a random per-process prefix and the header: no password or token is
// ever a key in clear, and a key cannot be tested against a guessed password outside this
// process. (A plain prefix, not an HMAC: a cache key needs no resistance to length extension,
// and the one-shot hash costs a fifth of an HMAC's object setup.)

import { hash, randomBytes } from 'node:crypto';
import type { Identity } from './caller-identity.ts';
import { LapsingEntries } from '../identity/lapsing-entries.ts';

const MAX_ENTRIES = 10_000;
/** How long a proven Basic credential is taken without a fresh check (as password-check.ts remembers it). */
export const BASIC_PROVEN_MS = 5 * 60 * 1000;
/** The longest a bearer token is taken without a fresh check, whatever its `exp` says (as verified-tokens.ts). */
export const BEARER_PROVEN_MS = 10 * 60 * 1000;

interface Proven { identity: Identity; generation: number; until: number }

export class ProvenIdentities {
  readonly #prefix = randomBytes(32).toString('base64');
  readonly #entries = new LapsingEntries<Proven>(MAX_ENTRIES);

  /** The key a header sent on an origin is remembered under. */
  keyOf(authorization: string, origin: string | undefined): string {
    return hash('sha256', `${this.#prefix}\n${origin ?? ''}\n${authorization}`, 'base64url');
  }

  /** The identity proven under `key`, if the store has not changed since (`generation`) and it has not lapsed at `now` (ms). */
  get(key: string, generation: number, now: number): Identity | undefined {
    const entry = this.#entries.get(key, now);
    if (!entry) return undefined;
    if (entry.generation !== generation) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.identity;
  }

  /** Remembers an identity proven at `generation` (NaN: inside a transaction, not kept) until `until` (ms). */
  remember(key: string, identity: Identity, generation: number, now: number, until: number): void {
    if (Number.isNaN(generation)) return;
    this.#entries.set(key, { identity, generation, until }, now);
  }

  get size(): number {
    return this.#entries.size;
  }
}
