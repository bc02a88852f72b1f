// `spemu export`: every table of a spemu database into one line file (format.ts), read in
// keyset batches inside one read-only snapshot, so the file is consistent even while the
// server writes, and no table is ever held in memory; then the files' contents the snapshot's
// rows name, streamed from the byte store (blobs.ts).

import { renameSync, rmSync } from 'node:fs';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Connection } from '../sql/connect.ts';
import type { SqlFlavour } from '../sql/flavour.ts';
import { readCatalog, type TableInfo } from './catalog.ts';
import { encodeValue, FORMAT, FORMAT_VERSION, gzipped, LineWriter, type Header, type TableLine } from './format.ts';
import { BOOKKEEPING, CARRIED_AS_BLOBS, spemuTables } from './ownership.ts';
import { exportBlobs } from './blobs.ts';
import type { ByteStore } from '../blobs.ts';
import { ChunkBytes } from '../sql/blob-chunks.ts';
import { Progress } from './progress.ts';
import { appliedMigrations } from './schema.ts';

export interface TransferSummary { tables: number; rows: number; seconds: number; rowsPerSecond: number }

export interface ExportOptions {
  /** Rows per keyset batch. Default 1000. */
  batchRows?: number;
  progress?: Progress;
  /** Recorded in the header, for people reading the file. */
  spemuVersion?: string;
  /**
   * Where the files' bytes are: a SQLite workspace's blobs folder (DiskBytes). Default: the
   * database's own blob_chunks (PostgreSQL, in-memory SQLite), read in the export's snapshot.
   */
  bytes?: ByteStore;
}

/** Stands in for a primary key on a table without one: SQLite's rowid, PostgreSQL's ctid. */
const SYNTHETIC_KEY = '__spemu_key';

function batchQuery(table: TableInfo, flavour: SqlFlavour, after: unknown[] | undefined, limit: number): RawBuilder<Record<string, unknown>> {
  const columns = sql.join(table.columns.map((c) => sql.id(c.name)));
  if (!table.primaryKey.length) {
    const key = flavour === 'postgres' ? sql`ctid` : sql`rowid`;
    const keyText = flavour === 'postgres' ? sql`ctid::text` : sql`rowid`;
    const bound = flavour === 'postgres' ? sql`${after?.[0]}::tid` : sql`${after?.[0]}`;
    const where = after ? sql`where ${key} > ${bound}` : sql``;
    return sql`select ${columns}, ${keyText} as ${sql.id(SYNTHETIC_KEY)} from ${sql.id(table.name)} ${where} order by ${key} limit ${limit}`;
  }
  const keys = sql.join(table.primaryKey.map((k) => sql.id(k)));
  const where = after ? sql`where (${keys}) > (${sql.join(after)})` : sql``;
  return sql`select ${columns} from ${sql.id(table.name)} ${where} order by ${keys} limit ${limit}`;
}

async function exportTable(db: Kysely<any>, flavour: SqlFlavour, table: TableInfo, origin: TableLine['origin'], out: LineWriter, progress: Progress, batchRows: number): Promise<number> {
  const { rows: counted } = await sql<{ n: number }>`select count(*) as n from ${sql.id(table.name)}`.execute(db);
  const expected = Number(counted[0]!.n);
  const line: TableLine = { table: table.name, ...table, rows: expected, origin };
  await out.write(`${JSON.stringify(line)}\n`);
  progress.startTable(table.name, expected);
  let after: unknown[] | undefined;
  let written = 0;
  for (;;) {
    const { rows } = await batchQuery(table, flavour, after, batchRows).execute(db);
    if (!rows.length) break;
    let chunk = '';
    for (const row of rows) chunk += `${JSON.stringify(table.columns.map((c) => encodeValue(row[c.name])))}\n`;
    await out.write(chunk);
    written += rows.length;
    progress.addRows(rows.length);
    const last = rows.at(-1)!;
    after = table.primaryKey.length ? table.primaryKey.map((k) => last[k]) : [last[SYNTHETIC_KEY]];
    if (rows.length < batchRows) break;
  }
  await out.write(`${JSON.stringify({ end: table.name, rows: written })}\n`);
  progress.endTable();
  return written;
}

/** Writes the database to `file` (`-`: stdout; *.gz: gzip). A file is only ever whole: it is written aside and renamed at the end. */
export async function exportDatabase(connection: Connection, file: string, options: ExportOptions = {}): Promise<TransferSummary> {
  const { db, flavour } = connection;
  const progress = options.progress ?? new Progress('exported');
  const migrations = await appliedMigrations(db, flavour);
  if (!migrations.length) throw new Error('This database holds no spemu workspace (no migrations recorded): nothing to export.');
  const partial = file === '-' ? file : `${file}.partial`;
  const out = new LineWriter(partial, { gzip: gzipped(file) });
  try {
    const header: Header = {
      format: FORMAT, version: FORMAT_VERSION, created: new Date().toISOString(), source: flavour,
      spemu: options.spemuVersion ?? 'unknown', migrations,
    };
    await out.write(`${JSON.stringify(header)}\n`);
    const run = async (trx: Kysely<any>) => {
      // Read-only and repeatable: every table as of one moment, whatever the server writes meanwhile.
      if (flavour === 'postgres') await sql`set transaction read only`.execute(trx);
      const owned = await spemuTables(trx, flavour);
      let rows = 0;
      let tables = 0;
      for (const table of await readCatalog(trx, flavour)) {
        if (BOOKKEEPING.includes(table.name) || CARRIED_AS_BLOBS.includes(table.name)) continue;
        const origin = owned.migration.includes(table.name) ? 'migration' : owned.runtime.includes(table.name) ? 'runtime' : 'other';
        if (origin === 'other') progress.note(`  note: table ${table.name} is not one spemu made; it is carried all the same`);
        rows += await exportTable(trx, flavour, table, origin, out, progress, options.batchRows ?? 1000);
        tables++;
      }
      const blobs = migrations.includes('0008-blobs') ? await exportBlobs(trx, options.bytes ?? new ChunkBytes(trx), out) : { blobs: 0, bytes: 0 };
      if (blobs.blobs) progress.note(`  file contents: ${blobs.blobs.toLocaleString('en-US')} (${blobs.bytes.toLocaleString('en-US')} bytes)`);
      await out.write(`${JSON.stringify({ end: 'export', tables, rows, blobs: blobs.blobs })}\n`);
    };
    const transaction = flavour === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
    await transaction.execute(run);
    await out.close();
  } catch (e) {
    await out.close().catch(() => {});
    if (partial !== '-') rmSync(partial, { force: true });
    throw e;
  }
  if (partial !== file) renameSync(partial, file);
  return progress.finish();
}
