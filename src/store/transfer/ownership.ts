// Which tables of a database are spemu's, for `--reset` on PostgreSQL and `import --force`,
// which drop them, and for import's "is the target empty?". Explicitly, never by pattern:
//
//   - the tables spemu's migrations make: found by running the migrations on a scratch
//     in-memory SQLite database and listing what they made (so a new migration needs no
//     change here), plus Kysely's own migration bookkeeping tables;
//   - the tables spemu makes at run time, each recorded in its metadata: RUNTIME_TABLES says
//     where. A feature that makes tables at run time adds a line there.
//
// Anything else in the database or schema (another application's tables) is never touched.

import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import { openSqlite } from '../sql/connect.ts';
import type { SqlFlavour } from '../sql/flavour.ts';
import { byName, quoteId, readCatalog, tableNames } from './catalog.ts';
import { migrate } from './schema.ts';

export const BOOKKEEPING = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE];
/** Tables whose content an export carries as blob lines, not rows: the two backends keep bytes differently (transfer/blobs.ts). */
export const CARRIED_AS_BLOBS = ['blobs', 'blob_chunks'];

/**
 * Where spemu's metadata records the tables it makes at run time: a migration-made table,
 * and an SQL expression (valid in SQLite and PostgreSQL) over its rows giving their names.
 * A metadata table the database lacks (an older schema) is skipped.
 */
export const RUNTIME_TABLES: Array<{ metadata: string; name: string }> = [
  { metadata: 'lists', name: 'table_name' }, // items_<row_id>, one per list (sql/item-table.ts)
  { metadata: 'pd_tables', name: "'pd_' || id" }, // pd_<id>, one per ProjectData (site, set) (sql/projectdata-store.ts)
];

let baseline: Promise<Map<string, number>> | undefined;

/** Table → rows in a database that has only been migrated (bookkeeping tables excluded). */
export function migrationBaseline(): Promise<Map<string, number>> {
  baseline ??= (async () => {
    const scratch = openSqlite({ file: ':memory:' });
    try {
      await migrate(scratch.db, 'sqlite');
      const out = new Map<string, number>();
      for (const name of await tableNames(scratch.db, 'sqlite')) {
        if (BOOKKEEPING.includes(name)) continue;
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.id(name)}`.execute(scratch.db);
        out.set(name, Number(rows[0]!.n));
      }
      return out;
    } finally {
      await scratch.db.destroy();
    }
  })();
  return baseline;
}

export interface SpemuTables {
  /** Made by migrations (and present). */
  migration: string[];
  /** Made at run time and recorded in spemu's metadata (and present). */
  runtime: string[];
  /** Kysely's migration records (present). */
  bookkeeping: string[];
}

export async function spemuTables(db: Kysely<any>, flavour: SqlFlavour): Promise<SpemuTables> {
  const present = new Set(await tableNames(db, flavour));
  const made = [...(await migrationBaseline()).keys()].filter((t) => present.has(t));
  const runtime = new Set<string>();
  for (const source of RUNTIME_TABLES) {
    if (!present.has(source.metadata)) continue;
    // The expression is a constant of this file, never input.
    const { rows } = await sql<{ name: string }>`select distinct ${sql.raw(source.name)} as name from ${sql.id(source.metadata)}`.execute(db);
    for (const { name } of rows) if (typeof name === 'string' && present.has(name) && !made.includes(name)) runtime.add(name);
  }
  return { migration: made, runtime: [...runtime].sort(byName), bookkeeping: BOOKKEEPING.filter((t) => present.has(t)) };
}

/** What makes a database not empty: rows beyond what migrations insert, or run-time tables. Empty list: empty. */
export async function contents(db: Kysely<any>, flavour: SqlFlavour): Promise<string[]> {
  const tables = await spemuTables(db, flavour);
  const base = await migrationBaseline();
  const found: string[] = [];
  for (const table of tables.migration) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.id(table)}`.execute(db);
    const n = Number(rows[0]!.n);
    if (n > (base.get(table) ?? 0)) found.push(`${table} (${n} rows)`);
  }
  if (tables.runtime.length) found.push(`${tables.runtime.length} run-time tables (${tables.runtime.slice(0, 3).join(', ')}${tables.runtime.length > 3 ? ', …' : ''})`);
  return found;
}

/**
 * Drops spemu's tables (and with them their indexes and identity sequences), in one
 * transaction. Refused by the database, and nothing dropped, if another application's
 * table has a foreign key to one of them. Returns the tables dropped.
 */
export async function dropSpemuTables(db: Kysely<any>, flavour: SqlFlavour): Promise<string[]> {
  const { migration, runtime, bookkeeping } = await spemuTables(db, flavour);
  const all = [...runtime, ...migration, ...bookkeeping];
  if (!all.length) return [];
  if (flavour === 'postgres') {
    await db.transaction().execute(async (trx) => {
      // One statement: PostgreSQL orders the drops among the listed tables itself.
      await sql.raw(`drop table ${all.map(quoteId).join(', ')}`).execute(trx);
    });
    return all;
  }
  // SQLite checks foreign keys on each drop: referencing tables go first.
  const order = (await readCatalog(db, flavour)).map((t) => t.name).filter((t) => all.includes(t)).reverse();
  await db.transaction().execute(async (trx) => {
    for (const table of order) await sql.raw(`drop table ${quoteId(table)}`).execute(trx);
  });
  return order;
}
