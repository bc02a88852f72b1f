// The database a maintenance command (migrate, export, import) works on, named as the
// server names it: --db <file|url> (SPEMU_DB), else <--data>/spemu.db (SPEMU_DATA, default
// ./.spemu). PostgreSQL is checked as at server start; statements have no time limit here,
// since a maintenance command may legitimately run long. Files' bytes are where the server
// keeps them: the workspace's blobs folder for SQLite, blob_chunks for PostgreSQL.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { blobFolderOf, ConfigError, resolveOptions } from '../config.ts';
import { checkPostgres, openPostgres, openSqlite, type Connection } from '../store/sql/connect.ts';
import type { ByteStore } from '../store/blobs.ts';
import { DiskBytes } from '../store/blob-disk.ts';
import { ChunkBytes } from '../store/sql/blob-chunks.ts';

export const DATABASE_FLAGS = { db: { type: 'string' }, data: { type: 'string' } } as const;

export const DATABASE_USAGE = `  --db <file|url>         SQLite file or postgres://user:password@host:5432/database (SPEMU_DB)
  --data <dir>            workspace folder whose spemu.db is meant when --db is not given (SPEMU_DATA, default ./.spemu)`;

export interface OpenedDatabase {
  connection: Connection;
  /** Where, for messages: the file, or the URL without its password. */
  name: string;
  clearStatementCache?: (() => void) | undefined;
  /** Where the database's files' bytes are. */
  bytes: ByteStore;
  close(): Promise<void>;
}

/** A PostgreSQL URL fit to print: the password is never shown. */
export const redact = (url: string): string => url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/i, '$1:***@');

export async function openDatabase(values: Record<string, unknown>, env: NodeJS.ProcessEnv, mode: { create: boolean }): Promise<OpenedDatabase> {
  const db = (values.db as string | undefined) ?? env.SPEMU_DB;
  const data = (values.data as string | undefined) ?? env.SPEMU_DATA;
  const resolved = resolveOptions({ ...(db !== undefined ? { db } : {}), ...(data !== undefined ? { data } : {}) });
  if (resolved.db === ':memory:') throw new ConfigError('--db :memory: holds nothing to migrate, export or import into.');
  if (resolved.postgres) {
    const opened = await openPostgres({ url: resolved.db, maxConnections: 2, statementTimeoutMs: 0 });
    const problem = await checkPostgres(opened.db).catch(async (e: unknown) => {
      await opened.db.destroy();
      throw new ConfigError(`cannot reach the database ${redact(resolved.db)}: ${(e as Error).message}`);
    });
    if (problem) { await opened.db.destroy(); throw new ConfigError(problem); }
    return { connection: opened, name: redact(resolved.db), bytes: new ChunkBytes(opened.db), close: () => opened.db.destroy() };
  }
  if (!existsSync(resolved.db)) {
    if (!mode.create) throw new ConfigError(`There is no SQLite database at ${resolved.db}.`);
    // A workspace's database gets the workspace folder (and its marker) the server would make.
    // (index.ts is loaded only here: it brings the whole server.)
    if (db === undefined) (await import('../index.ts')).prepareWorkspace(resolved);
    else mkdirSync(dirname(resolved.db), { recursive: true });
  }
  const opened = openSqlite({ file: resolved.db });
  const folder = blobFolderOf(resolved);
  return {
    connection: opened, name: resolved.db, clearStatementCache: opened.clearStatementCache,
    bytes: folder ? new DiskBytes(folder) : new ChunkBytes(opened.db), close: () => opened.db.destroy(),
  };
}
