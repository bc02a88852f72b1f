// Opens the database behind a store: SQLite (better-sqlite3) or PostgreSQL (a `pg` pool).
// Both are Kysely dialects, so everything above this file is shared.

import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import { fail, DomainError } from '../../domain/errors.ts';
import type { SqlFlavour } from './flavour.ts';
import type { DirectDriver, Row } from './direct-reads.ts';
import { decodeNuls, encodeNul, LANES, postgresDirect } from './postgres-direct.ts';
import { KeptRows } from './kept-rows.ts';

export interface Connection {
  db: Kysely<any>;
  flavour: SqlFlavour;
  /** The hot read path straight on the driver (direct-reads.ts). */
  direct: DirectDriver;
  /** A statement whose answer moves when another connection commits, where the database has one (sql-store.ts `changeProbe`). */
  changeProbe?: string | undefined;
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
function withStatementCache(database: SqliteDatabase.Database, kept: KeptRows, capacity = 500) {
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
      // Every statement runs through here (Kysely prepares per query): one that may write ends what is kept.
      if (!statement.readonly) kept.drop();
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
  const kept = new KeptRows();
  const cached = withStatementCache(database, kept);
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: cached as never }) });
  const direct: DirectDriver = {
    // The one connection inside another unit of work's transaction: queue behind it (Kysely's mutex).
    rows: (text, params) => (database.inTransaction ? undefined : Promise.resolve(cached.prepare(text).all(...params) as Row[])),
    rowNow(text, params) {
      if (database.inTransaction) return undefined;
      // A point read (one parameter: an item by id) is answered from memory while nothing was written (kept-rows.ts).
      const keep = params.length === 1;
      const known = keep ? kept.get(text, params[0]) : undefined;
      if (known !== undefined) return known;
      const row = (cached.prepare(text).get(...params) as Row | undefined) ?? null;
      if (keep) kept.keep(text, params[0], row);
      return row;
    },
    externalChange: () => kept.drop(),
    clear: () => { kept.drop(); cached.clear(); },
  };
  return { db, flavour: 'sqlite', clearStatementCache: cached.clear, direct, changeProbe: 'pragma data_version' };
}

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` (anything `pg` accepts). */
  url: string;
  /** Most connections opened: the pool's and the hot reads' (postgres-direct.ts). Default 10. */
  maxConnections?: number;
  /** Longest a statement may run, in milliseconds (PostgreSQL's statement_timeout); 0 = none. Default 30000. */
  statementTimeoutMs?: number;
  /** How long to wait for a connection before answering 503. Default 5000. */
  connectTimeoutMs?: number;
  /** Seconds a client is told to wait (Retry-After) while the database is unavailable. Default 5. */
  retryAfterSeconds?: number;
  /** Told about errors of idle connections (the database restarting, a network cut). */
  onIdleError?: (error: Error) => void;
}

/** PostgreSQL's bigint (int8) arrives as text; every bigint spemu stores fits a JS number. */
const INT8_OID = 20;
const pgTypesFor = (driver: typeof pg) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === INT8_OID && format !== 'binary' ? (v: string) => Number(v) : driver.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
});

/** SQLSTATE classes and codes that mean "the database is not there right now", not "this request is wrong". */
const UNAVAILABLE_STATES = new Set([
  '57P01', '57P02', '57P03', // admin / crash shutdown, cannot connect now (starting up)
  '53300', '53400', // too many connections, configuration limit exceeded
  '57014', // query_canceled: statement_timeout
  '40001', '40P01', // serialization failure, deadlock detected: the client may retry
  '55P03', // lock_not_available (lock_timeout)
]);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|connection is closed/i;

/** Whether a `pg` error means the database is unavailable (503) rather than a fault (500). */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message);
}

/** `pg` is loaded only when a PostgreSQL URL is used: SQLite workspaces start without it. */
export async function openPostgres(options: PostgresOptions): Promise<Connection & { pool: pg.Pool }> {
  const driver = (await import('pg')).default;
  const retryAfter = options.retryAfterSeconds ?? 5;
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  const connection: pg.ClientConfig = {
    connectionString: options.url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
    types: pgTypesFor(driver),
  };
  // The connections are shared between the pool and the hot path's lanes (postgres-direct.ts); the
  // pool keeps at least 2 (startup holds one for its lock while migrating on another).
  const max = options.maxConnections ?? 10;
  const lanes = Math.min(LANES, Math.max(0, max - 2));
  const pool = new driver.Pool({ ...connection, max: max - lanes, idleTimeoutMillis: 30_000 });
  // A connection that dies while idle (the server restarts) must not bring the process down;
  // the pool drops it and opens a new one on demand, which is how the server recovers.
  pool.on('error', (e) => options.onIdleError?.(e));
  // Errors that mean "no database right now" become SharePoint's 503 with Retry-After, so the
  // request pipeline answers them like any other SharePoint error.
  const unavailable = (e: unknown): unknown => (isUnavailable(e) && !(e instanceof DomainError) ? fail.serviceUnavailable(retryAfter) : e);
  const guarded = new WeakSet<pg.PoolClient>();
  const wrapped = {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (e) {
        throw unavailable(e);
      }
      // pg-pool handles errors of idle clients only: one that loses its connection while
      // checked out would otherwise raise an uncaught 'error' (its query fails anyway).
      if (!guarded.has(client)) {
        guarded.add(client);
        client.on('error', (e) => options.onIdleError?.(e));
      }
      return {
        query(...args: unknown[]): any {
          if (typeof args[0] === 'string' && Array.isArray(args[1])) args[1] = args[1].map(encodeNul);
          const result = (client.query as (...a: unknown[]) => unknown)(...args);
          return result instanceof Promise
            ? result.then(decodeNuls, (e: unknown) => { throw unavailable(e); })
            : result;
        },
        release: () => client.release(),
      };
    },
    end: async () => { await direct.end(); await pool.end(); },
  };
  // Hot reads on connections of their own (postgres-direct.ts), the pool when those are held up.
  const direct = postgresDirect({ driver, config: connection, lanes, pool, unavailable, onIdleError: options.onIdleError });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: wrapped as never }) });
  return { db, flavour: 'postgres', pool, direct };
}

/** Whether `--db` names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/**
 * spemu compares text case-insensitively with lower(), which PostgreSQL folds by the
 * database's locale: the C locale folds ASCII only, and would make `$filter=Title eq 'ä'`
 * differ from SQLite. Refuse such a database with the fix, rather than answer differently.
 */
export async function checkPostgres(db: Kysely<any>): Promise<string | undefined> {
  const { rows } = await sql<{ folded: string; version: number }>`select lower('ÄÉ') as folded, current_setting('server_version_num')::int as version`.execute(db);
  const row = rows[0]!;
  if (Number(row.version) < 140000) return `PostgreSQL ${Math.floor(Number(row.version) / 10000)} is too old: spemu needs PostgreSQL 14 or later.`;
  if (row.folded !== 'äé') {
    return "The database's locale does not fold case beyond ASCII (lower('ÄÉ') is not 'äé'), so text would compare differently "
      + "from SharePoint. Create the database with a UTF-8 locale, e.g. CREATE DATABASE spemu ENCODING 'UTF8' LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8' TEMPLATE template0.";
  }
  return undefined;
}
