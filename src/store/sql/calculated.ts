// Calculated columns on SQL: every item write stores its calculated columns' values with the
// rest, computed from the item as it will be (its current values, merged with the change,
// when it is updated). A list without calculated columns pays nothing: no read, no work.

import { sql } from 'kysely';
import { calculatedValues, hasCalculated } from '../../domain/calculated.ts';
import type { Field, Item, List, StoredValue } from '../../domain/model.ts';
import { columnList, rowToItem } from './item-table.ts';
import type { SqlSession } from './session.ts';

/** What the item is besides the written values: the item as it was (updates) and its dates after the write. */
export interface CalculationBasis {
  before?: Item | undefined;
  created?: string | undefined;
  modified?: string | undefined;
}

/** `values` plus the value of every calculated column of `fields`, for an item written with them. */
export function withCalculated(fields: Field[], values: Record<string, StoredValue>, basis: CalculationBasis): Record<string, StoredValue> {
  if (!hasCalculated(fields)) return values;
  const item: Record<string, StoredValue> = {
    ...basis.before?.values,
    Created: basis.created ?? basis.before?.created ?? null,
    Modified: basis.modified ?? basis.before?.modified ?? null,
    ...values,
  };
  return { ...values, ...calculatedValues(fields, item) };
}

/**
 * Stores the values of `changed` (calculated columns just made, or whose formula changed) for
 * every item of the list, in the unit of work `s` is in. One read of the items, then one
 * update per item whose value is not the one stored.
 */
export async function recalculate(s: SqlSession, list: List, fields: Field[], changed: Field[]): Promise<void> {
  if (changed.length === 0) return;
  const rows = await s.rows(sql`select ${sql.raw(columnList(fields))} from ${sql.table(list.tableName)}`.compile(s.db).sql, []);
  for (const row of rows) {
    const item = rowToItem(row, fields);
    const computed = calculatedValues(fields, { ...item.values, Created: item.created, Modified: item.modified });
    const set: Record<string, StoredValue> = {};
    for (const field of changed) {
      const value = computed[field.internalName] ?? null;
      if (value !== item.values[field.internalName]) set[field.column] = value;
    }
    if (Object.keys(set).length) await s.db.updateTable(list.tableName).set(set).where('id', '=', item.id).execute();
  }
}
