// PostgreSQL: rebuilds the item tables' sort indexes (each list's `items_<n>_modified` and
// one per indexed field) as item-table.ts now declares them, `nulls first`. spemu sorts
// empty values first ascending; indexes made before kept PostgreSQL's nulls-last default,
// which the planner cannot read in that order, so every `$orderby` on them added a sort.
// SQLite's indexes already order so: nothing to do there.

import { sql, type Kysely, type Migration } from 'kysely';
import { CASE_FOLDED_KINDS, type Flavour as SqlFlavour } from './frozen.ts';

export const indexNullsFirst = (flavour: SqlFlavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  if (flavour !== 'postgres') return;
  // The run-time item tables are those the lists name (as the store makes and drops them).
  const lists = await db.selectFrom('lists').select(['row_id', 'table_name']).orderBy('row_id').execute();
  for (const list of lists) {
    const table = String(list.table_name);
    // Same name, new definition; the migration's transaction keeps the swap atomic.
    await db.schema.dropIndex(`${table}_modified`).ifExists().execute();
    await sql`create index ${sql.id(`${table}_modified`)} on ${sql.id(table)} (modified nulls first, id)`.execute(db);
    const indexed = await db.selectFrom('fields').select(['column_name', 'kind'])
      .where('list_row_id', '=', list.row_id).where('indexed', '=', 1).execute();
    for (const f of indexed) {
      const column = String(f.column_name);
      const index = sql.id(`${table}_${column}_ix`);
      // Text sorts case-folded by code point; other kinds by the column itself.
      const key = CASE_FOLDED_KINDS.has(String(f.kind)) ? sql`lower(${sql.ref(column)}) collate "C"` : sql`${sql.ref(column)}`;
      await sql`drop index if exists ${index}`.execute(db);
      await sql`create index if not exists ${index} on ${sql.id(table)} (${key} nulls first, id)`.execute(db);
    }
  }
}
