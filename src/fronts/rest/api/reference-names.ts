// What the people and items that User/Lookup fields point at are called: the text a client sees
// for a reference (FieldValuesAsText, a version's LookupValue), with a user's email beside it.

import { storedValue } from '../../../domain/items.ts';
import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import type { Field, Item, List } from '../../../domain/model.ts';
import { storedArray } from '../../../domain/values.ts';
import type { ApiContext } from './context.ts';
import { lookupTarget } from './item-projection.ts';

export interface ReferenceName {
  /** The target's shown column: a user's Title, a lookup's `lookupField` (Title by default); '' when the target has no such column. */
  value: string;
  /** A user's EMail (null when they have none); null for lookups. */
  email: string | null;
}

/**
 * The names of everything the reference fields of `items` point at, by field internal name,
 * then target id: one query per field, however many items.
 * Fields with no references in `items`, or whose target list is gone, have no entry.
 */
export async function referenceNames(
  list: List, fields: Field[], items: Item[], ctx: ApiContext,
): Promise<Map<string, Map<number, ReferenceName>>> {
  const out = new Map<string, Map<number, ReferenceName>>();
  for (const field of fields) {
    const info = FIELD_KINDS[field.kind];
    if (!info.reference) continue;
    const ids = new Set<number>();
    for (const item of items) {
      const stored = storedValue(field, item);
      if (info.multi) storedArray<number>(stored).forEach((id) => ids.add(id));
      else if (stored !== null) ids.add(Number(stored));
    }
    const target = ids.size ? await lookupTarget(field, list, ctx) : undefined;
    if (!target) continue;
    const shownName = info.reference === 'user' ? 'Title' : field.options.lookupField ?? 'Title';
    const shown = target.fields.find((f) => f.internalName === shownName);
    const rows = await ctx.store.items.getMany(target.list, target.fields, [...ids]);
    out.set(field.internalName, new Map(rows.map((r) => [r.id, {
      value: shown ? String(storedValue(shown, r) ?? '') : '',
      email: info.reference === 'user' && typeof r.values.EMail === 'string' ? r.values.EMail : null,
    }])));
  }
  return out;
}
