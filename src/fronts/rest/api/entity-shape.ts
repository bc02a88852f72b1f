// A fixed-shape entity (SP.Web, SP.List) as a table of its properties, each made from the
// record it shows: the whole entity is the table run in order, and a GET whose `$select` names
// a few of them (`web?$select=Title`, issue #13) makes only those. What a `$select` picks from a
// shape is worked out once per parsed query (the query objects of kept URLs are shared and
// frozen: request-cache.ts), as pure syntax over a fixed table: nothing in it can go stale.

import type { Value } from '../../../wire/values.ts';
import type { QueryOptions } from './context.ts';

/** How a property's value is made from the entity's source; a constant is shared, never written to. */
export type PropMaker<S> = Value | ((source: S) => Value);

/** Properties SP.Web and SP.List write only when named (security.ts `withSecurableProperties`), in the order they are appended. */
export const SECURABLE_PROPS = ['EffectiveBasePermissions', 'HasUniqueRoleAssignments'] as const;

/** What a plain `$select` (no `$expand`, no `*`, names the shape has) keeps of a shape. */
export interface Selection {
  /** Indexes into the shape's properties, in the shape's order. */
  props: readonly number[];
  /** The deferred navigation properties named alone, in the shape's order; undefined when none. */
  deferred: string[] | undefined;
  effectiveBasePermissions: boolean;
  hasUniqueRoleAssignments: boolean;
  /** Whether CurrentChangeToken is among the properties (its value then comes from the change log). */
  changeToken: boolean;
}

export class EntityShape<S> {
  readonly #byName = new Map<string, number>();
  readonly #deferredByName = new Map<string, string>();
  /** A selection per parsed query (null: the general path serves it); weak, so a query parsed for one request goes with it. */
  readonly #selections = new WeakMap<QueryOptions, Selection | null>();

  constructor(readonly type: string, readonly deferred: readonly string[], readonly props: ReadonlyArray<readonly [string, PropMaker<S>]>) {
    props.forEach(([name], i) => this.#byName.set(name.toLowerCase(), i));
    for (const name of deferred) this.#deferredByName.set(name.toLowerCase(), name);
  }

  /** Every property, in order (the entity without `$select`). */
  all(source: S): Array<[string, Value]> {
    const out: Array<[string, Value]> = new Array(this.props.length);
    for (let i = 0; i < this.props.length; i++) out[i] = [this.props[i]![0], make(this.props[i]![1], source)];
    return out;
  }

  /** Only the properties a selection keeps, in order. */
  picked(selection: Selection, source: S): Array<[string, Value]> {
    const out: Array<[string, Value]> = new Array(selection.props.length);
    for (let i = 0; i < selection.props.length; i++) {
      const [name, maker] = this.props[selection.props[i]!]!;
      out[i] = [name, make(maker, source)];
    }
    return out;
  }

  /**
   * What `$select` keeps, when the query is plain enough to answer from the table: `$select` given,
   * no `$expand`, no `*`, every name one segment long and one the shape (or SECURABLE_PROPS) has.
   * Anything else (an unknown name's 400 included) is left to the general path (expand.ts), so
   * both answer alike. Mirrors entities.ts `selectProps` for an entity without expansions.
   */
  selection(query: QueryOptions): Selection | undefined {
    let hit = this.#selections.get(query);
    if (hit === undefined) this.#selections.set(query, (hit = this.#select(query)));
    return hit ?? undefined;
  }

  #select(query: QueryOptions): Selection | null {
    if (!query.select || query.expand.length > 0) return null;
    const wanted = new Set<number>();
    const deferred = new Set<string>();
    let effectiveBasePermissions = false;
    let hasUniqueRoleAssignments = false;
    for (const path of query.select) {
      const [head] = path;
      if (!head || head.startsWith('odata.')) continue;
      if (head === '*' || path.length > 1) return null;
      const lower = head.toLowerCase();
      const at = this.#byName.get(lower);
      if (at !== undefined) { wanted.add(at); continue; }
      if (lower === 'effectivebasepermissions') { effectiveBasePermissions = true; continue; }
      if (lower === 'hasuniqueroleassignments') { hasUniqueRoleAssignments = true; continue; }
      const navigation = this.#deferredByName.get(lower);
      if (navigation === undefined) return null;
      deferred.add(navigation);
    }
    const props = [...wanted].sort((a, b) => a - b);
    return {
      props,
      deferred: deferred.size ? this.deferred.filter((d) => deferred.has(d)) : undefined,
      effectiveBasePermissions, hasUniqueRoleAssignments,
      changeToken: props.some((i) => this.props[i]![0] === 'CurrentChangeToken'),
    };
  }
}

const make = <S>(maker: PropMaker<S>, source: S): Value => (typeof maker === 'function' ? maker(source) : maker);
