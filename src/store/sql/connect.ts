// Opens the database behind a store. SQLite now; PostgreSQL joins through the same
// Kysely interface, so everything above this file is shared.

import { Kysely, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import type { SqlFlavour } from './flavour.ts';

export interface Connection {
  db: Kysely<any>;
  flavour: SqlFlavour;
}

export interface SqliteOptions {
  /** A file path or `:memory:`. */
  file: string;
}

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares per query, so
 * keep compiled statements by their SQL text. The set of distinct texts is bounded by the
 * query shapes (parameters are bound, never inlined), and a cap keeps it bounded anyway.
 */
function withStatementCache(database: SqliteDatabase.Database, capacity = 500) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => { cache.clear(); database.close(); },
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
    /** DDL changes invalidate compiled statements that touch the changed table. */
    clear: () => cache.clear(),
  };
}

export function openSqlite(options: SqliteOptions): Connection & { clearStatementCache(): void } {
  const database = new SqliteDatabase(options.file);
  // WAL keeps readers and the writer apart; synchronous=FULL fsyncs the WAL on every
  // commit, so an acknowledged write survives a process crash and a power cut.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // 32 MB of page cache (the default is 2 MB): index and row pages of large lists stay hot.
  database.pragma('cache_size = -32768');
  // SQLite's own lower() folds ASCII only ('Ä' stays 'Ä'); SharePoint (and PostgreSQL's
  // lower()) compare all letters case-insensitively. Text filters, sorting, keyset paging
  // and the lower(column) indexes all go through this one, so they agree with each other.
  database.function('lower', { deterministic: true },
    (v: unknown) => (v === null ? null : typeof v === 'string' ? v.toLowerCase() : String(v).toLowerCase()));
  const cached = withStatementCache(database);
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: cached as never }) });
  return { db, flavour: 'sqlite', clearStatementCache: cached.clear };
}
