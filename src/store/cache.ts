// One read-through cache for everything the store keeps in memory: metadata that every
// request reads and that rarely changes (sites, webs, lists, fields, settings, the directory
// entries authentication reads, ProjectData's per-site schema).
//
// Entries live in scopes ('fields', 'lists', …) under a key. A repository reads through
// `read(scope, key, load)`; its writes name what they change (`invalidate(scope, key)`, or a
// whole scope), and the unit of work applies those names when the transaction ends. Nothing
// is mirrored per method and nothing clears more than the write named.
//
// A value loaded while the same entry was invalidated may be stale and is not kept: every
// invalidation stamps its entry (or scope) with a tick, and a load keeps its value only if
// no stamp is newer than the tick it started at.

export class ReadThroughCache {
  private readonly entries = new Map<string, Map<string, unknown>>();
  private tick = 0;
  /** The tick of the last invalidation, per scope (whole-scope drops) and per scope+key. */
  private readonly scopeStamps = new Map<string, number>();
  private readonly keyStamps = new Map<string, number>();
  /** Entries a running transaction has written but not yet committed: read past the cache. */
  private readonly pending = new Map<string, number>();

  /** Moves with every invalidation (and clear): what was derived from cached values at one generation holds while it stays. */
  get generation(): number { return this.tick; }

  /** Cached value of `scope`/`key`, else what `load` returns (kept unless invalidated meanwhile). */
  read<V>(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    // A hit (every request's metadata, most of the time) costs one settled promise, no async frame.
    const entries = this.entries.get(scope);
    if (entries?.has(key)) return Promise.resolve(entries.get(key) as V);
    return this.loadAndKeep(scope, key, load);
  }

  private async loadAndKeep<V>(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    const started = this.tick;
    const value = await load();
    if (this.fresh(scope, key, started)) {
      let map = this.entries.get(scope);
      if (!map) this.entries.set(scope, (map = new Map()));
      map.set(key, value);
    }
    return value;
  }

  /**
   * The cached value of `scope`/`key` if there is one (nothing is loaded): for a write deciding,
   * before it takes its locks, whether it must be a metadata write (items.ts).
   */
  peek<V>(scope: string, key: string): V | undefined {
    return this.entries.get(scope)?.get(key) as V | undefined;
  }

  /** Drops one entry, or (no key) a whole scope. */
  invalidate(scope: string, key?: string): void {
    this.tick++;
    if (key === undefined) {
      this.entries.delete(scope);
      this.scopeStamps.set(scope, this.tick);
    } else {
      this.entries.get(scope)?.delete(key);
      this.keyStamps.set(`${scope}\u0000${key}`, this.tick);
    }
  }

  /**
   * A transaction is about to change `scope`/`key` (no key: the whole scope): until `settle`,
   * nothing read of it is kept, since another request may read the old row and cache it
   * after the commit.
   */
  hold(scope: string, key?: string): void {
    const name = key === undefined ? scope : `${scope}\u0000${key}`;
    this.pending.set(name, (this.pending.get(name) ?? 0) + 1);
    this.invalidate(scope, key);
  }

  /** The transaction that held `scope`/`key` has ended (committed or not): drop it again and release it. */
  settle(scope: string, key?: string): void {
    const name = key === undefined ? scope : `${scope}\u0000${key}`;
    const count = (this.pending.get(name) ?? 1) - 1;
    if (count > 0) this.pending.set(name, count);
    else this.pending.delete(name);
    this.invalidate(scope, key);
  }

  /** Forgets everything (another instance changed metadata; see SqlStore.sync). */
  clear(): void {
    this.tick++;
    this.entries.clear();
    this.clearedAt = this.tick;
  }

  private clearedAt = 0;

  private fresh(scope: string, key: string, started: number): boolean {
    if (this.clearedAt > started) return false;
    if ((this.scopeStamps.get(scope) ?? 0) > started) return false;
    const name = `${scope}\u0000${key}`;
    if ((this.keyStamps.get(name) ?? 0) > started) return false;
    return !this.pending.has(name) && !this.pending.has(scope);
  }
}
