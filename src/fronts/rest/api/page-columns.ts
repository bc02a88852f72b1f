// What a page of list items reads of each row: the plan's fields and item parts (as a read by
// id does), plus the sort keys, whose values go into the next link's skiptoken. A custom
// field's column is added to the plan's; a system one (Modified, FileLeafRef…) reads whole rows.
//
// The store keeps each column list per fields array (store/sql/item-table.ts `columnList`), so
// the arrays given here must be the same from one request to the next: the plan's own when the
// keys add nothing, else one kept per plan and sort key fields. A plan is made again whenever
// the list's fields change (the store's generation moves: request-cache.ts `plannedFor`), so
// what is kept on it never outlives the fields it was made from.

import type { Field } from '../../../domain/model.ts';
import type { SortKey } from '../../../store/store.ts';
import type { ItemPlan } from './item-projection.ts';

export interface PageColumns {
  load: Field[] | undefined;
  parts: ItemPlan['parts'];
}

interface Kept {
  fields: readonly Field[];
  columns: PageColumns;
}

const WHOLE_ROWS: PageColumns = { load: undefined, parts: undefined };
/** Per plan, by the sort keys' internal names; bounded, as an odd client could sort by every field in turn. */
const keptByPlan = new WeakMap<ItemPlan, Map<string, Kept>>();
const KEPT_PER_PLAN = 32;

export function pageColumns(plan: ItemPlan, keys: readonly SortKey[]): PageColumns {
  if (!plan.load) return WHOLE_ROWS;
  const load = plan.load;
  if (keys.every((k) => load.includes(k.field) && !readsWholeRow(k.field))) return { load, parts: plan.parts };
  let kept = keptByPlan.get(plan);
  if (!kept) keptByPlan.set(plan, (kept = new Map()));
  const name = keys.map((k) => k.field.internalName).join('/');
  const hit = kept.get(name);
  // The same Field objects, not just the same names: a field replaced under the same name is read afresh.
  if (hit && hit.fields.length === keys.length && keys.every((k, i) => hit.fields[i] === k.field)) return hit.columns;
  const columns = makePageColumns(plan, load, keys);
  if (kept.size >= KEPT_PER_PLAN) kept.clear();
  kept.set(name, { fields: keys.map((k) => k.field), columns });
  return columns;
}

/** A system field other than Title and ID, whose value is read from the item's parts: the page reads whole rows. */
const readsWholeRow = (f: Field): boolean => f.builtIn && f.column !== 'title' && f.column !== 'id';

function makePageColumns(plan: ItemPlan, load: Field[], keys: readonly SortKey[]): PageColumns {
  if (keys.some((k) => readsWholeRow(k.field))) return { load: [...new Set([...load, ...keys.map((k) => k.field)])], parts: undefined };
  const extra = keys.map((k) => k.field).filter((f) => !load.includes(f));
  return { load: extra.length ? [...load, ...new Set(extra)] : load, parts: plan.parts };
}
