// What was worked out for one owner object (one caller's principal or identity, or a record of
// the store's read cache) while the store's generation stands: every change to what the values
// rest on moves the generation, which drops them all at once. Keyed weakly by the owner, so an
// owner no request holds any more takes its values with it; bounded per owner (keeping one past
// `maxPerOwner` drops the owner's others, which are worked out again). Every memo of this kind is
// one of these: effective-permissions.ts, item-visibility.ts, site-principals.ts and
// request-cache.ts (`derivedFrom`).

export class GenerationMemo<Owner extends object, Key, Value> {
  private readonly byOwner = new WeakMap<Owner, { generation: number; values: Map<Key, Value> }>();

  constructor(private readonly maxPerOwner: number) {}

  /** The value kept for `owner` and `key` at `generation`, if any. */
  get(owner: Owner, generation: number, key: Key): Value | undefined {
    const kept = this.byOwner.get(owner);
    return kept?.generation === generation ? kept.values.get(key) : undefined;
  }

  /**
   * Keeps `value`, worked out from `started` on, if the generation is still `now` (nothing it
   * rests on changed meanwhile) and not NaN (inside a transaction nothing is kept).
   */
  keep(owner: Owner, started: number, now: number, key: Key, value: Value): void {
    if (Number.isNaN(started) || now !== started) return;
    let kept = this.byOwner.get(owner);
    if (!kept || kept.generation !== started || kept.values.size >= this.maxPerOwner) this.byOwner.set(owner, (kept = { generation: started, values: new Map() }));
    kept.values.set(key, value);
  }
}
