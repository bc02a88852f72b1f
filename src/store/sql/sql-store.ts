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
   */
  override async sync(): Promise<void> {
    const { shared, cache } = this.session.options;
    if (!shared) return;
    if (this.changeProbe) {
      const [probe] = await this.session.rows(this.changeProbe, []);
      const seen = probe ? Object.values(probe)[0] : undefined;
      if (seen !== undefined && seen === this.probeSeen) return;
      this.probeSeen = seen;
    }
    const text = this.session.shape('metadata-version', (db) => db.selectFrom('metadata_version').select('version').where('id', '=', 1).compile());
    const [row] = await this.session.rows(text, [1]);
    const version = Number(row?.version ?? 0);
    if (version === this.knownVersion) return;
    if (this.knownVersion === undefined || version < this.knownVersion) cache.clear();
    else await applyForeignChanges(this.session.db, cache, this.knownVersion, version);
    this.knownVersion = version;
  }

  override async close(): Promise<void> {
    await this.session.db.destroy();
  }
}
