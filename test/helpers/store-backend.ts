// The SQL store on the leg's real database, for tests that look below the Store interface:
// a SQLite file, or (SPEMU_TEST_DB=postgres) a fresh database of the test cluster. What
// the two spell differently (catalog queries, query plans, triggers) is said here once, so
// the store and compiler tests are one set of cases run on both.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { migrateToLatest } from '../../src/store/sql/migrate.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import type { SqlFlavour } from '../../src/store/sql/flavour.ts';
import { sharedCluster, testBackend } from './postgres.ts';

export interface StoreBackend {
  flavour: SqlFlavour;
  store: SqlStore;
  db: Kysely<any>;
  /** Closes the connection; the database stays, for `reopen`. */
  close(): Promise<void>;
  /** The same database, opened again (as after a restart). */
  reopen(): Promise<StoreBackend>;
  /** Where blobs' bytes are kept on disk (SQLite), else undefined (in the database). */
  blobFolder: string | undefined;
  /** The SQLite file, or the PostgreSQL URL. */
  location: string;
}

const cleanup: Array<() => Promise<void> | void> = [];
process.on('beforeExit', () => { void Promise.all(cleanup.splice(0).map((fn) => fn())); });

/** A new, migrated database of the leg's kind with a store on it. */
export async function openStoreBackend(flavour: SqlFlavour = testBackend()): Promise<StoreBackend> {
  if (flavour === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-store-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return open('sqlite', path.join(dir, 'spemu.db'));
  }
  const cluster = await sharedCluster();
  const url = await cluster.createDatabase('spemu_store');
  cleanup.push(() => cluster.dropDatabase(url).catch(() => {}));
  return open('postgres', url);
}

async function open(flavour: SqlFlavour, where: string): Promise<StoreBackend> {
  const connection = flavour === 'sqlite' ? openSqlite({ file: where }) : await openPostgres({ url: where, statementTimeoutMs: 0 });
  const clear = 'clearStatementCache' in connection ? connection.clearStatementCache : undefined;
  // Blobs' bytes where the server keeps them: a folder beside a SQLite file, the database on PostgreSQL.
  const blobFolder = flavour === 'sqlite' ? path.join(path.dirname(where), 'blobs') : undefined;
  const store = new SqlStore(connection.db, flavour, { onSchemaChange: clear, blobFolder });
  await migrateToLatest(connection.db, flavour);
  return { flavour, store, db: connection.db, close: () => store.close(), reopen: () => open(flavour, where), blobFolder, location: where };
}

export async function rows<T = Record<string, unknown>>(db: Kysely<any>, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

// ---- the catalog

export async function tableNames(b: StoreBackend): Promise<string[]> {
  const query = b.flavour === 'sqlite'
    ? sql`select name from sqlite_master where type = 'table' order by name`
    : sql`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`;
  return (await rows<{ name: string }>(b.db, query)).map((r) => r.name);
}

export const tableExists = async (b: StoreBackend, name: string) => (await tableNames(b)).includes(name);

export async function columnsOf(b: StoreBackend, table: string): Promise<string[]> {
  const query = b.flavour === 'sqlite'
    ? sql`select name from pragma_table_info(${table})`
    : sql`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`;
  return (await rows<{ name: string }>(b.db, query)).map((r) => r.name);
}

/** Secondary indexes of a table (not its primary key's), by name. */
export async function indexesOf(b: StoreBackend, table: string): Promise<string[]> {
  const query = b.flavour === 'sqlite'
    ? sql`select name from pragma_index_list(${table}) where origin <> 'pk'`
    : sql`select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
        where t.relname = ${table} and not x.indisprimary`;
  return (await rows<{ name: string }>(b.db, query)).map((r) => r.name).sort();
}

/** An index's definition with identifier quotes removed: `… (lower(c12) COLLATE "C", id)` or `… (lower(c12), id)`. */
export async function indexDefinition(b: StoreBackend, name: string): Promise<string> {
  const query = b.flavour === 'sqlite'
    ? sql`select sql as d from sqlite_master where type = 'index' and name = ${name}`
    : sql`select indexdef as d from pg_indexes where indexname = ${name}`;
  return (await rows<{ d: string }>(b.db, query))[0]!.d.replace(/"(\w+)"/g, (m, id: string) => (id === 'C' ? m : id));
}

// ---- query plans

/**
 * The plan of a query. On PostgreSQL sequential scans and sorts are discouraged (not
 * forbidden), so a plan that still has one shows that no index could serve: small test
 * tables would otherwise be scanned whatever indexes exist.
 */
export async function plan(b: StoreBackend, query: RawBuilder<unknown>): Promise<string> {
  if (b.flavour === 'sqlite') return (await rows<{ detail: string }>(b.db, sql`explain query plan ${query}`)).map((r) => r.detail).join('\n');
  return b.db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    await sql`set enable_sort = off`.execute(conn);
    try {
      return (await rows<{ 'QUERY PLAN': string }>(conn, sql`explain (costs off) ${query}`)).map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(conn);
      await sql`reset enable_sort`.execute(conn);
    }
  });
}

export const usesIndex = (b: StoreBackend, text: string, index: string) => (b.flavour === 'sqlite'
  ? new RegExp(`USING (COVERING )?INDEX ${index}\\b`).test(text)
  : new RegExp(`(Index Scan|Index Only Scan) using ${index}\\b|Bitmap Index Scan on ${index}\\b`).test(text));
export const scansTable = (b: StoreBackend, text: string) => (b.flavour === 'sqlite' ? /^SCAN/m.test(text) : /Seq Scan/.test(text));
export const sorts = (b: StoreBackend, text: string) => (b.flavour === 'sqlite' ? /TEMP B-TREE/.test(text) : /\bSort\b/.test(text));

// ---- making the database refuse a write (to prove a failed write leaves no trace)

export interface Refusal {
  /** insert / update / delete on `table`; `when` is a condition over `new` or `old` (SQL, both dialects). */
  event: 'insert' | 'update' | 'delete';
  table: string;
  when: string;
  message: string;
}

/** A trigger that aborts the write with `message` when `when` holds; returns a function that removes it. */
export async function refuse(b: StoreBackend, name: string, r: Refusal): Promise<() => Promise<void>> {
  const row = r.event === 'delete' ? 'old' : 'new';
  if (b.flavour === 'sqlite') {
    await sql.raw(`create trigger "${name}" before ${r.event} on "${r.table}" when ${r.when} begin select raise(abort, '${r.message}'); end`).execute(b.db);
    return async () => { await sql.raw(`drop trigger "${name}"`).execute(b.db); };
  }
  await sql.raw(`create function "${name}_fn"() returns trigger language plpgsql as $$
    begin if ${r.when} then raise exception '${r.message}'; end if; return ${row}; end $$`).execute(b.db);
  await sql.raw(`create trigger "${name}" before ${r.event} on "${r.table}" for each row execute function "${name}_fn"()`).execute(b.db);
  return async () => {
    await sql.raw(`drop trigger "${name}" on "${r.table}"`).execute(b.db);
    await sql.raw(`drop function "${name}_fn"()`).execute(b.db);
  };
}
