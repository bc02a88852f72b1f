// `spemu import`: loads an export file (format.ts) into a database, SQLite or PostgreSQL,
// whichever the file came from. The target is migrated to the schema the file was made
// with, the rows are copied table by table in batched transactions, tables that spemu made
// at run time are recreated from the shapes the file records (their indexes after their
// rows), files' contents are written to the target's byte store (blobs.ts), and then the
// schema is migrated to this spemu's latest and the identity counters are moved past the
// imported ids.

import { sql, type Kysely } from 'kysely';
import type { Connection } from '../sql/connect.ts';
import type { SqlFlavour } from '../sql/flavour.ts';
import { describeTable, quoteId, type ColumnInfo, type PortableType, type TableInfo } from './catalog.ts';
import { createIndexSql, createTableSql } from './ddl.ts';
import { decodeValue, FORMAT, READABLE_VERSIONS, readLines, type Decoded, type EndLine, type Header, type TableLine } from './format.ts';
import { blobLineProblem, importBlob, type BlobLine, type BytesLine } from './blobs.ts';
import type { ByteStore } from '../blobs.ts';
import { ChunkBytes } from '../sql/blob-chunks.ts';
import { contents, dropSpemuTables } from './ownership.ts';
import { Progress } from './progress.ts';
import { migrate, migrationNames } from './schema.ts';
import type { TransferSummary } from './export.ts';

export interface ImportOptions {
  /** Replace a target that already holds a workspace (its spemu tables are dropped first). */
  force?: boolean;
  /** Rows per transaction. Default 2000. */
  batchRows?: number;
  progress?: Progress;
  /** SQLite: compiled statements go stale when tables are dropped and made. */
  clearStatementCache?: () => void;
  /** Where files' bytes go: a SQLite workspace's blobs folder (DiskBytes; required for a SQLite target of a file holding files). Default on PostgreSQL: its blob_chunks. */
  bytes?: ByteStore;
}

export class ImportError extends Error {}

/** Under both databases' bound-parameter limits (SQLite 32766, PostgreSQL 65535). */
const MAX_PARAMETERS = 30_000;
/** A batch also ends at about this many characters of row text (photos are large). */
const MAX_BATCH_CHARS = 8 * 1024 * 1024;

function checkHeader(line: string | undefined): Header {
  let header: Header;
  try {
    header = JSON.parse(line ?? '') as Header;
  } catch {
    throw new ImportError('This is not a spemu export file (its first line is not JSON).');
  }
  if (header?.format !== FORMAT) throw new ImportError('This is not a spemu export file (no spemu-export header).');
  if (!READABLE_VERSIONS.includes(header.version)) {
    throw new ImportError(`The export file has format version ${header.version}; this spemu reads versions ${READABLE_VERSIONS.join(' and ')}.`);
  }
  const known = migrationNames();
  const unknown = header.migrations.filter((m) => !known.includes(m));
  if (unknown.length) throw new ImportError(`The export was made by a newer spemu (migrations ${unknown.join(', ')} are unknown here); import it with that version or later.`);
  if (!header.migrations.length || header.migrations.some((m, i) => known[i] !== m)) {
    throw new ImportError(`The export's migrations (${header.migrations.join(', ')}) are not a prefix of this spemu's (${known.join(', ')}).`);
  }
  return header;
}

/** A decoded value as the target column takes it. */
function toTarget(value: Decoded, type: PortableType, flavour: SqlFlavour): unknown {
  if (value === null) return null;
  if (typeof value === 'object' && !Buffer.isBuffer(value)) return value.json;
  if (type === 'boolean') return flavour === 'postgres' ? value === true || value === 1 || value === 't' : (value === true || value === 1 ? 1 : 0);
  if (typeof value === 'boolean') return flavour === 'postgres' && type !== 'integer' ? value : (value ? 1 : 0);
  if (typeof value === 'bigint' && flavour === 'postgres') return value.toString();
  return value;
}

interface TableLoad {
  line: TableLine;
  columns: string[];
  types: PortableType[];
  overriding: boolean;
  /** Made here from the file's shape: its indexes are built after its rows. */
  created: boolean;
  batch: unknown[][];
  chars: number;
  rows: number;
}

async function prepareTable(db: Kysely<any>, flavour: SqlFlavour, source: SqlFlavour, line: TableLine): Promise<TableLoad> {
  let target = await describeTable(db, flavour, line.table);
  const created = !target;
  if (!target) {
    // A table the migrations do not make: spemu made it at run time (an item table, …).
    await sql.raw(createTableSql(line, source, flavour)).execute(db);
    target = (await describeTable(db, flavour, line.table))!;
  } else {
    const missing = line.columns.filter((c) => !target!.columns.some((t) => t.name === c.name));
    if (missing.length) throw new ImportError(`Table ${line.table} of this database has no column ${missing.map((c) => c.name).join(', ')}, which the export holds.`);
    // Rows the migrations inserted (e.g. a counter's first row) give way to the exported ones.
    await sql`delete from ${sql.id(line.table)}`.execute(db);
  }
  const byName = new Map<string, ColumnInfo>(target.columns.map((c) => [c.name, c]));
  return {
    line, created, batch: [], chars: 0, rows: 0,
    columns: line.columns.map((c) => c.name),
    types: line.columns.map((c) => byName.get(c.name)!.type),
    overriding: flavour === 'postgres' && line.columns.some((c) => byName.get(c.name)!.identity === 'always'),
  };
}

async function flush(db: Kysely<any>, load: TableLoad): Promise<void> {
  if (!load.batch.length) return;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / load.columns.length));
  const columns = sql.join(load.columns.map((c) => sql.id(c)));
  const overriding = load.overriding ? sql`overriding system value` : sql``;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < load.batch.length; i += perStatement) {
      const rows = load.batch.slice(i, i + perStatement).map((r) => sql`(${sql.join(r)})`);
      await sql`insert into ${sql.id(load.line.table)} (${columns}) ${overriding} values ${sql.join(rows)}`.execute(trx);
    }
  });
  load.batch = [];
  load.chars = 0;
}

async function finishTable(db: Kysely<any>, flavour: SqlFlavour, load: TableLoad, end: EndLine): Promise<void> {
  await flush(db, load);
  if (end.rows !== load.rows) throw new ImportError(`Table ${load.line.table}: the file says ${end.rows} rows, but holds ${load.rows}.`);
  if (load.created) {
    for (const index of load.line.indexes) await sql.raw(createIndexSql(load.line.table, index, flavour)).execute(db);
  }
}

/** Moves identity counters past the imported ids, so the next insert does not collide. */
async function fixCounters(db: Kysely<any>, flavour: SqlFlavour, tables: TableInfo[]): Promise<void> {
  for (const table of tables) {
    const info = await describeTable(db, flavour, table.name);
    if (!info) continue;
    if (flavour === 'postgres') {
      for (const c of info.columns.filter((col) => col.identity)) {
        await sql`select setval(pg_get_serial_sequence(${quoteId(table.name)}, ${c.name}), coalesce(max(${sql.id(c.name)}), 0) + 1, false) from ${sql.id(table.name)}`.execute(db);
      }
    }
  }
  if (flavour === 'sqlite') {
    // Only AUTOINCREMENT tables keep a counter (sqlite_sequence); a rowid key continues from max(rowid) anyway.
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like '%autoincrement%'`.execute(db);
    for (const { name } of rows) {
      if (!tables.some((t) => t.name === name)) continue;
      await sql`delete from sqlite_sequence where name = ${name}`.execute(db);
      await sql`insert into sqlite_sequence (name, seq) select ${name}, coalesce(max(rowid), 0) from ${sql.id(name)}`.execute(db);
    }
  }
}

export interface ImportSummary extends TransferSummary {
  /** Tables dropped first (with --force, or leftovers of an empty schema). */
  dropped: number;
  /** Migrations applied after the rows, from the file's schema to this spemu's latest. */
  migratedAfter: string[];
}

export async function importDatabase(connection: Connection, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const { db, flavour } = connection;
  const progress = options.progress ?? new Progress('imported');
  const batchRows = options.batchRows ?? 2000;
  const iterator = readLines(file)[Symbol.asyncIterator]();
  // A file that cannot be read (missing, corrupt gzip) is the operator's to fix: say so plainly.
  // A line read ahead (the one after a blob's bytes) is handed out again first.
  let ahead: IteratorResult<string> | undefined;
  const lines = {
    next: (): Promise<IteratorResult<string>> => {
      if (ahead) { const line = ahead; ahead = undefined; return Promise.resolve(line); }
      return iterator.next().catch((e: unknown) => { throw new ImportError(`Cannot read ${file}: ${(e as Error).message}.`); });
    },
  };
  const header = checkHeader((await lines.next()).value as string | undefined);

  const found = await contents(db, flavour);
  if (found.length && !options.force) {
    throw new ImportError(`The target database already holds a spemu workspace (${found.join('; ')}). `
      + 'Import into an empty database, or pass --force to drop spemu\'s tables there and replace them.');
  }
  // An empty target may still have been migrated (by `spemu migrate`, perhaps past the file's
  // schema): its tables are empty, so start from nothing and build exactly the file's schema.
  const dropped = (await dropSpemuTables(db, flavour)).length;
  options.clearStatementCache?.();
  await migrate(db, flavour, header.migrations.at(-1));
  progress.note(`importing ${file} (made ${header.created} from ${header.source}, schema ${header.migrations.at(-1)})`);

  const imported: TableInfo[] = [];
  let load: TableLoad | undefined;
  let trailer: EndLine | undefined;
  let lineNumber = 1;
  let blobs = 0;
  const parse = <T>(text: string): T => {
    try { return JSON.parse(text) as T; } catch { throw new ImportError(`Line ${lineNumber} of the export file is not JSON.`); }
  };
  // SQLite keeps a workspace's bytes in files beside it, which only the caller can name (a
  // default of the database's own chunks would put them where the server never looks).
  const bytes = options.bytes ?? (flavour === 'postgres' ? new ChunkBytes(db) : undefined);
  /** A blob's bytes: the lines after its own, up to the first that is not one of them (read ahead, handed back). */
  async function* blobBytes(): AsyncGenerator<Uint8Array> {
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      if (!next.value.startsWith('{"bytes"')) { ahead = next; return; }
      lineNumber++;
      const part = parse<BytesLine>(next.value).bytes;
      if (typeof part !== 'string') throw new ImportError(`Line ${lineNumber} of the export file holds no bytes.`);
      yield Buffer.from(part, 'base64');
    }
  }
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    lineNumber++;
    const text = next.value as string;
    if (!text) continue;
    if (trailer) throw new ImportError('The export file goes on after its end line.');
    if (text.startsWith('[')) {
      if (!load) throw new ImportError('The export file has a row outside any table.');
      const values = parse<unknown[]>(text);
      if (values.length !== load.columns.length) throw new ImportError(`Table ${load.line.table}: a row has ${values.length} values for ${load.columns.length} columns.`);
      load.batch.push(values.map((v, i) => toTarget(decodeValue(v), load!.types[i]!, flavour)));
      load.chars += text.length;
      load.rows++;
      if (load.batch.length >= batchRows || load.chars >= MAX_BATCH_CHARS) {
        const count = load.batch.length;
        await flush(db, load);
        progress.addRows(count);
      }
      continue;
    }
    const control = parse<TableLine | EndLine | BlobLine | BytesLine>(text);
    if ('blob' in control) {
      if (load) throw new ImportError(`Table ${load.line.table} has no end line.`);
      const problem = blobLineProblem(control) ?? (header.migrations.includes('0008-blobs') ? undefined : 'its schema has no blobs');
      if (problem) throw new ImportError(`Line ${lineNumber} of the export file names a file content, but ${problem}.`);
      if (!bytes) throw new ImportError('The export file holds file contents, and the SQLite target was given no folder for them (the `bytes` option).');
      await importBlob(db, bytes, control, blobBytes(), (message) => new ImportError(message));
      blobs++;
    } else if ('bytes' in control) {
      throw new ImportError(`Line ${lineNumber} of the export file holds bytes outside any file content.`);
    } else if ('table' in control) {
      if (load) throw new ImportError(`Table ${load.line.table} has no end line.`);
      load = await prepareTable(db, flavour, header.source, control);
      options.clearStatementCache?.();
      progress.startTable(control.table, control.rows);
    } else if (control.end === 'export') {
      if (load) throw new ImportError(`Table ${load.line.table} has no end line.`);
      trailer = control;
    } else {
      if (!load || control.end !== load.line.table) throw new ImportError(`Unexpected end of table ${control.end}.`);
      const pending = load.batch.length;
      await finishTable(db, flavour, load, control);
      progress.addRows(pending);
      progress.endTable();
      imported.push(load.line);
      load = undefined;
    }
  }
  if (!trailer) {
    throw new ImportError('The export file is cut short (no end line): the target holds a partial import. Fix the file and import again with --force.');
  }
  if (trailer.tables !== imported.length) throw new ImportError(`The export file lists ${trailer.tables} tables but holds ${imported.length}.`);
  if ((trailer.blobs ?? 0) !== blobs) throw new ImportError(`The export file lists ${trailer.blobs ?? 0} file contents but holds ${blobs}.`);
  if (blobs) progress.note(`  file contents: ${blobs.toLocaleString('en-US')}`);

  const migratedAfter = await migrate(db, flavour);
  // A chunked upload in progress names bytes under the source's own storage key, which does not
  // travel (only blobs do): it is ended, as an abandoned one would be (its client starts again).
  await db.deleteFrom('upload_sessions').where('storage_key', 'is not', null).execute();
  await fixCounters(db, flavour, imported);
  options.clearStatementCache?.();
  // Fresh statistics, so PostgreSQL's planner uses the new tables' indexes from the first query
  // (SQLite plans without statistics, as spemu's own databases have none).
  if (flavour === 'postgres') await sql`analyze`.execute(db);
  return { ...progress.finish(), dropped, migratedAfter };
}
