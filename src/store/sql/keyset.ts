// Keyset paging: the condition "rows strictly after this position" in (sort keys…, id) order.

import { sql, type RawBuilder } from 'kysely';
import type { StoredValue } from '../../domain/model.ts';
import type { SortKey } from '../items.ts';
import type { SqlFlavour } from './flavour.ts';
import { sortExpression, sortValue } from './item-table.ts';

/** NULL sorts lowest, as in SharePoint: first in ascending order, last in descending order. */
export function keysetCondition(keys: SortKey[], after: { id: number; values: StoredValue[] }, idDescending: boolean, flavour: SqlFlavour): RawBuilder<unknown> {
  const alternatives: RawBuilder<unknown>[] = [];
  const equalities: RawBuilder<unknown>[] = [];
  keys.forEach((key, i) => {
    const expr = sortExpression(key.field, flavour);
    const raw = after.values[i] ?? null;
    // The position's value goes through the same expression as the column (lower() for text,
    // see sortValue), so the database folds both sides alike.
    const value = raw === null ? null : sortValue(key.field, raw, flavour);
    const beyond = value === null
      ? (key.descending ? undefined : sql`${expr} is not null`)
      : (key.descending ? sql`(${expr} < ${value} or ${expr} is null)` : sql`${expr} > ${value}`);
    if (beyond) alternatives.push(equalities.length ? sql`(${sql.join([...equalities, beyond], sql` and `)})` : beyond);
    equalities.push(value === null ? sql`${expr} is null` : sql`${expr} = ${value}`);
  });
  const idBeyond = idDescending ? sql`id < ${after.id}` : sql`id > ${after.id}`;
  alternatives.push(equalities.length ? sql`(${sql.join([...equalities, idBeyond], sql` and `)})` : idBeyond);
  return sql`(${sql.join(alternatives, sql` or `)})`;
}
