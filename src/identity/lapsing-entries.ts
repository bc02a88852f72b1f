// A bounded map of entries that lapse at a time of their own, for the caches of proven
// credentials (identity/verified-tokens.ts, pipeline/proven-identities.ts): an entry read after
// its `until` is gone; when full, lapsed entries go first, else the oldest tenth (insertion
// order is age), so a flood of new keys cannot grow it without bound.

export class LapsingEntries<V extends { until: number }> {
  readonly #entries = new Map<string, V>();
  constructor(private readonly limit: number) {}

  /** The entry under `key` unless it has lapsed at `now` (ms), when it is dropped. */
  get(key: string, now: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps `entry` as the newest under `key`, unless it has already lapsed at `now`. */
  set(key: string, entry: V, now: number): void {
    if (entry.until <= now) return;
    if (this.#entries.size >= this.limit) this.#evict(now);
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #evict(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(key);
    if (this.#entries.size < this.limit) return;
    let drop = Math.ceil(this.limit / 10);
    for (const key of this.#entries.keys()) {
      if (drop-- <= 0) break;
      this.#entries.delete(key);
    }
  }
}
