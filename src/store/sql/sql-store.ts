// The Store on SQL, shared by SQLite and PostgreSQL through Kysely: one session (the
// connection, the read cache) and the repositories built over it (repositories.ts).
// Everything that differs between the two databases lives in flavour.ts and connect.ts.

import { sql, type Kysely } from 'kysely';
import { ReadThroughCache } from '../cache.ts';
import { ShapeTexts, type DirectDriver } from './direct-reads.ts';
import type { Store } from '../store.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { SqlFlavour } from './flavour.ts';
import { buildRepositories, REPOSITORIES, type RepositoryMemory } from './repositories.ts';
import { recordingChanges } from './change-recording.ts';
import { applyForeignChanges, SqlSession } from './session.ts';
import { DiskBytes } from '../blob-disk.ts';
import { ChunkBytes } from './blob-chunks.ts';

const SETTLED: Promise<void> = Promise.resolve();

export interface SqlStoreOptions {
  /**
   * Other instances write to the same database (PostgreSQL with several servers): call
   * `sync()` once per request, and list records (ItemCount and dates move with every item
   * write, on any instance) are read from the database every time.
   */
  shared?: boolean;
  /** After DDL: SQLite's compiled statements are dropped (connect.ts). */
  onSchemaChange?: () => void;
  /** The hot read path on the driver (connect.ts); without it every read goes through Kysely. */
  direct?: DirectDriver | undefined;
  /**
   * A statement whose answer moves whenever another connection commits (SQLite's
   * `pragma data_version`, connect.ts): while it stays the same, `sync` reads nothing else.
   * Only for a connection of the store's own (stores sharing one connection see no move).
   */
  changeProbe?: string | undefined;
  /** The folder for blobs' bytes (a workspace's `blobs/`); without one, they are kept in the database. */
  blobFolder?: string | undefined;
}

// The repositories' members come from `buildRepositories`, assigned in the constructor.
export interface SessionStore extends Store {}

/** The Store over one session: the connection's, or (inside `transaction`) a transaction's. */
export class SessionStore {
  constructor(protected readonly session: SqlSession) {
    const memory: RepositoryMemory = { pdTables: session.inTransaction ? undefined : new Map() };
    // Every write the change log follows records its change in its own unit of work (change-recording.ts).
    Object.assign(this, recordingChanges(buildRepositories(session, memory), session, memory, (name, s, m) => REPOSITORIES[name](s, m)));
  }

  transaction<T>(fn: (store: Store, work: UnitOfWork) => Promise<T>): Promise<T> {
    return this.session.transaction((session) => fn(session === this.session ? this : new SessionStore(session), session.work!));
  }

  async refreshStatistics(): Promise<void> {
    // SQLite: nothing. Its plans here come from its rules, without statistics (spemu's
    // databases have no sqlite_stat1); `pragma optimize` could add some and move plans.
    if (this.session.flavour === 'postgres') await sql`analyze`.execute(this.session.db);
  }

  /** The read cache's generation (cache.ts); NaN inside a transaction, whose reads are not cached. */
  generation(): number {
    return this.session.inTransaction ? NaN : this.session.options.cache.generation;
  }

  /** Inside a transaction there is nothing to sync: see SqlStore. */
  async sync(): Promise<void> {}

  async close(): Promise<void> {
    throw new Error('a transaction\'s store cannot be closed');
  }
}

export class SqlStore extends SessionStore {
  /** The metadata counter as of the last sync (shared mode). */
  private knownVersion: number | undefined;
  /** The counter read waiting to be sent, shared by every request since the last one left (PostgreSQL). */
  private nextRead: Promise<void> | undefined;
  /** The counter read sent last (PostgreSQL): the next waits for it. */
  private readOut: Promise<void> = SETTLED;
  /** The change probe's answer as of the last sync (shared mode). */
  private probeSeen: unknown;
  private readonly changeProbe: string | undefined;

  constructor(db: Kysely<any>, flavour: SqlFlavour, options: SqlStoreOptions = {}) {
    super(new SqlSession(db, {
      flavour, cache: new ReadThroughCache(), shared: options.shared ?? false, onSchemaChange: options.onSchemaChange ?? (() => {}),
      direct: options.direct, shapes: new ShapeTexts(),
      bytes: options.blobFolder ? new DiskBytes(options.blobFolder) : new ChunkBytes(db),
    }));
    this.changeProbe = options.changeProbe;
  }

  /**
   * Drops what other instances changed since the last call (shared mode): one cheap read of
   * the metadata counter, and when it moved, the entries recorded under the new values.
   *
   * On PostgreSQL that read is a round trip, and requests that arrive together share one
   * (`sharedCounterRead`); SQLite answers its probe from shared memory, each caller its own.
   */
  override sync(): Promise<void> {
    if (!this.session.options.shared) return SETTLED;
    return this.session.flavour === 'postgres' ? this.sharedCounterRead() : this.readCounter();
  }

  /**
   * One counter read for every request that asks from now until it is sent. It is sent once the
   * event loop has taken in what this turn brought (setImmediate) and no earlier read is still
   * out, so it always leaves after every request it answers arrived: a write acknowledged to
   * anyone before such a request was sent is committed before the read, hence seen. One read is
   * out at a time, so the counter and the entries it drops are applied in order.
   */
  private sharedCounterRead(): Promise<void> {
    return this.nextRead ??= Promise.all([this.readOut.catch(() => undefined), new Promise((next) => setImmediate(next))]).then(() => {
      this.nextRead = undefined;
      return (this.readOut = this.readCounter());
    });
  }

  /**
   * The probe (SQLite), then the counter when the probe moved, then the entries other instances
   * changed. The probe's answer is taken as seen only once those entries are dropped: a request
   * arriving while they are being read (the connection may be busy with a transaction) must not
   * take an unmoved probe for "nothing changed" and read the entries still cached.
   */
  private async readCounter(): Promise<void> {
    const { cache } = this.session.options;
    let seen: unknown;
    if (this.changeProbe) {
      const [probe] = await this.session.rows(this.changeProbe, []);
      seen = probe ? Object.values(probe)[0] : undefined;
      if (seen !== undefined && seen === this.probeSeen) return;
      // Another process committed something: item rows kept in memory may be old.
      this.session.options.direct?.externalChange?.();
    }
    const text = this.session.shape('metadata-version', (db) => db.selectFrom('metadata_version').select('version').where('id', '=', 1).compile());
    const [row] = await this.session.rows(text, [1]);
    const version = Number(row?.version ?? 0);
    if (version !== this.knownVersion) {
      if (this.knownVersion === undefined || version < this.knownVersion) cache.clear();
      else await applyForeignChanges(this.session.db, cache, this.knownVersion, version);
      this.knownVersion = version;
    }
    if (this.changeProbe) this.probeSeen = seen;
  }

  override async close(): Promise<void> {
    await this.session.db.destroy();
  }
}
