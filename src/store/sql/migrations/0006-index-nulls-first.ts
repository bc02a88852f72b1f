// PostgreSQL: rebuilds the item tables' sort indexes (each list's `items_<n>_modified` and
// one per indexed field) as item-table.ts now declares them, `nulls first`. spemu sorts
// empty values first ascending; indexes made before kept PostgreSQL's nulls-last default,
// which the planner cannot read in that order, so every `$orderby` on them added a sort.
// SQLite's indexes already order so: nothing to do there.

import type { Kysely, Migration } from 'kysely';
import type { FieldKind } from '../../../domain/field-kinds.ts';
import type { SqlFlavour } from '../flavour.ts';
import { createFieldIndex, createModifiedIndex, dropFieldIndex } from '../item-table.ts';

export const indexNullsFirst = (flavour: SqlFlavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  if (flavour !== 'postgres') return;
  // The run-time item tables are those the lists name (as the store makes and drops them).
  const lists = await db.selectFrom('lists').select(['row_id', 'table_name']).orderBy('row_id').execute();
  for (const list of lists) {
    const table = String(list.table_name);
    // Same name, new definition; the migration's transaction keeps the swap atomic.
    await db.schema.dropIndex(`${table}_modified`).ifExists().execute();
    await createModifiedIndex(db, flavour, table);
    const indexed = await db.selectFrom('fields').select(['column_name', 'kind'])
      .where('list_row_id', '=', list.row_id).where('indexed', '=', 1).execute();
    for (const f of indexed) {
      const field = { column: String(f.column_name), kind: f.kind as FieldKind };
      await dropFieldIndex(db, table, field);
      await createFieldIndex(db, flavour, table, field);
    }
  }
}
