// What every SQL repository works through: the connection (or the open transaction), the
// flavour, the shared read cache and, inside a transaction, its unit of work.
//
// Reads of cached metadata go through `cached` (outside a transaction only: inside one they
// could see rows that later roll back). Writes go through `write` or `metadataWrite`, which
// join the open transaction or open one, and name the cache entries they change.

import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { ReadThroughCache } from '../cache.ts';
import type { DirectDriver, Row, ShapeTexts } from './direct-reads.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { ByteStore } from '../blobs.ts';
import type { SqlFlavour } from './flavour.ts';
import type { ChangeDraft } from '../../domain/change-tokens.ts';
import { writeChanges } from './changes.ts';

/** A cache entry a write changes: a scope and a key, or a whole scope. */
export type CacheName = readonly [scope: string, key?: string];

export interface SessionOptions {
  flavour: SqlFlavour;
  cache: ReadThroughCache;
  /** Other instances write to the same database (PostgreSQL, `--workers`): item counters are read fresh (SqlLists.withCounters). */
  shared: boolean;
  /** After DDL: SQLite's compiled statements are dropped (connect.ts). */
  onSchemaChange: () => void;
  /** The hot read path on the driver, where there is one (direct-reads.ts). */
  direct?: DirectDriver | undefined;
  /** The SQL text of each hot read shape, built once. */
  shapes: ShapeTexts;
  /** Where blobs' bytes are (blobs.ts). */
  bytes: ByteStore;
}

/** The unit of work of one SQL transaction. */
class TransactionWork implements UnitOfWork {
  private readonly held: CacheName[] = [];
  private readonly commitHooks: Array<() => void> = [];
  private readonly preCommit = new Map<string, () => Promise<void>>();
  /** The change log's rows this transaction writes before it commits. */
  readonly changeDrafts: ChangeDraft[] = [];

  constructor(private readonly cache: ReadThroughCache) {}

  changes(scope: string, key?: string): void {
    this.cache.hold(scope, key);
    this.held.push([scope, key]);
  }

  afterCommit(fn: () => void): void {
    this.commitHooks.push(fn);
  }

  beforeCommit(key: string, fn: () => Promise<void>): void {
    if (!this.preCommit.has(key)) this.preCommit.set(key, fn);
  }

  /** Inside the transaction, its work done: the steps asked to run before the commit (they may ask for more). */
  async runBeforeCommit(): Promise<void> {
    const done = new Set<string>();
    for (let pending = [...this.preCommit]; pending.length; pending = [...this.preCommit].filter(([k]) => !done.has(k))) {
      for (const [key, fn] of pending) { done.add(key); await fn(); }
    }
  }

  /** Records a change in the change log: written, numbered, just before this transaction commits. */
  recordChange(change: ChangeDraft): void {
    this.changeDrafts.push(change);
  }

  /** The transaction ended: release what it held; after a commit, run its hooks. */
  end(committed: boolean): void {
    for (const [scope, key] of this.held) this.cache.settle(scope, key);
    if (committed) for (const hook of this.commitHooks) hook();
  }
}

export class SqlSession {
  constructor(
    readonly db: Kysely<any>,
    readonly options: SessionOptions,
    /** Set inside a transaction. */
    readonly work?: UnitOfWork,
  ) {}

  get flavour(): SqlFlavour { return this.options.flavour; }
  get inTransaction(): boolean { return this.work !== undefined; }

  /** Runs `fn` in the open transaction, or in a new one with its own unit of work. */
  async transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T> {
    if (this.work) return fn(this);
    const work = new TransactionWork(this.options.cache);
    let committed = false;
    try {
      // The steps asked to run before the commit (the webhook outbox), then what the work
      // recorded for the change log, written last, in the same transaction.
      const run = async (trx: Kysely<any>) => {
        const session = new SqlSession(trx, this.options, work);
        const result = await fn(session);
        await work.runBeforeCommit();
        if (work.changeDrafts.length) await writeChanges(session, work.changeDrafts);
        return result;
      };
      const result = this.options.flavour === 'sqlite' ? await immediateTransaction(this.db, run) : await this.db.transaction().execute(run);
      committed = true;
      return result;
    } finally {
      work.end(committed);
    }
  }

  /** A write in one transaction that changes the named cache entries. */
  write<T>(changes: readonly CacheName[], fn: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.transaction((session) => {
      for (const [scope, key] of changes) session.work!.changes(scope, key);
      return fn(session);
    });
  }

  /**
   * A metadata write: `write`, plus a bump of the metadata counter other instances watch
   * (SqlStore.sync). The bump comes first so that concurrent metadata writers queue on that
   * one row (a single lock order). Where other instances share the database, the entries the
   * write changes are recorded under the counter's new value, for them to drop just those.
   */
  metadataWrite<T>(changes: readonly CacheName[], fn: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.write(changes, async (session) => {
      const bump = session.db.updateTable('metadata_version').set({ version: sql`version + 1` }).where('id', '=', 1);
      if (!this.options.shared) await bump.execute();
      else await recordChanges(session.db, Number((await bump.returning('version').executeTakeFirstOrThrow()).version), changes);
      return fn(session);
    });
  }

  /** Reads `scope`/`key` through the cache (straight from the database inside a transaction). */
  cached<V>(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    return this.work ? load() : this.options.cache.read(scope, key, load);
  }

  /** After DDL (SQLite's compiled statements of the changed table must be made anew). */
  schemaChanged(): void {
    this.options.shapes.clear();
    this.options.onSchemaChange();
  }

  /** The SQL text of the hot read shape `key`, compiled by `build` (with Kysely) the first time only. */
  shape(key: string, build: (db: Kysely<any>) => { sql: string }): string {
    return this.options.shapes.get(key, () => build(this.db).sql);
  }

  /**
   * A hot read: straight on the driver outside a unit of work (direct-reads.ts), else through
   * Kysely on the transaction's connection.
   */
  async rows(text: string, params: readonly unknown[]): Promise<Row[]> {
    const direct = this.work ? undefined : this.options.direct?.rows(text, params);
    return direct ?? ((await this.db.executeQuery(CompiledQuery.raw(text, [...params]))).rows as Row[]);
  }

  /**
   * A hot read of one row, at once where the driver is synchronous and free (SQLite outside a
   * unit of work; null: no row), else undefined and the caller uses `rows`.
   */
  rowNow(text: string, params: readonly unknown[]): Row | null | undefined {
    return this.work ? undefined : this.options.direct?.rowNow?.(text, params);
  }
}

/** Rows of `cache_changes` kept: an instance further behind than this drops its whole cache. */
export const CACHE_CHANGES_KEPT = 10_000;

/** What a metadata write changed, under its counter value (a write that names nothing records one empty row, so every value has rows). */
async function recordChanges(db: Kysely<any>, version: number, changes: readonly CacheName[]): Promise<void> {
  const rows = (changes.length ? changes : [['']] as const).map(([scope, key]) => ({ version, scope, key: key ?? '' }));
  await db.insertInto('cache_changes').values(rows).execute();
  if (version % 100 === 0) await db.deleteFrom('cache_changes').where('version', '<=', version - CACHE_CHANGES_KEPT).execute();
}

/**
 * Drops what other instances changed between counter values `known` (exclusive) and `now`
 * (inclusive): the recorded entries, or everything when some of those values have no rows
 * any more (pruned: this instance was too far behind).
 */
export async function applyForeignChanges(db: Kysely<any>, cache: ReadThroughCache, known: number, now: number): Promise<void> {
  const rows = await db.selectFrom('cache_changes').select(['version', 'scope', 'key'])
    .where('version', '>', known).where('version', '<=', now).execute();
  if (new Set(rows.map((r) => Number(r.version))).size !== now - known) return cache.clear();
  for (const r of rows) if (r.scope) cache.invalidate(String(r.scope), r.key === '' ? undefined : String(r.key));
}

/**
 * SQLite: a unit of work takes the write lock when it begins (BEGIN IMMEDIATE). A deferred
 * transaction reads first and asks for the lock at its first write; if another process
 * (`--workers`) committed in between, SQLite answers SQLITE_BUSY at once, without waiting
 * out busy_timeout, since the reader's snapshot is stale. Taking the lock first, a second
 * writer waits its turn instead of failing.
 */
async function immediateTransaction<T>(db: Kysely<any>, fn: (trx: Kysely<any>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let result: T;
    try {
      result = await fn(connection);
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
    try {
      await sql`commit`.execute(connection);
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
    return result;
  });
}
