// Files and folders are addressed by their UniqueId (GetFileById, GetFolderById), which is
// the item's guid: every item table gets an index on it. On PostgreSQL declared `nulls first`,
// as spemu's other item keys, so that a copy made by `spemu import` from SQLite is the same.

import { sql, type Kysely, type Migration } from 'kysely';
import type { Flavour } from './frozen.ts';

export const itemGuidIndex = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

/** The index as this migration makes it; item-table.ts makes new tables the same way. */
export async function addGuidIndex(db: Kysely<any>, flavour: Flavour, table: string): Promise<void> {
  await sql`create index ${sql.id(`${table}_guid`)} on ${sql.id(table)} (guid${sql.raw(flavour === 'postgres' ? ' nulls first' : '')})`.execute(db);
}

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const tables = await db.selectFrom('lists').select('table_name').execute();
  for (const { table_name: table } of tables) await addGuidIndex(db, flavour, String(table));
}
