// The export file: one JSON value per line (NDJSON), gzip-compressed when the name ends in
// .gz. Lines are written and read one at a time, so neither side holds a table in memory.
//
//   {"format":"spemu-export","version":2,…,"migrations":[…]}     header
//   {"table":"items_1","columns":[…],"primaryKey":[…],…}         a table: its shape…
//   ["a",1,null,{"$b":"iVBORw0…"}]                                …its rows, values in column order…
//   {"end":"items_1","rows":50}                                   …and its row count
//   {"blob":"9f86d08…","size":4,"refs":1,"touched":"…"}          a file's content (blobs.ts)…
//   {"bytes":"dGVzdA=="}                                          …its bytes, ≤ 1 MiB a line
//   {"end":"export","tables":14,"rows":1234,"blobs":3}           trailer: the file is whole
//
// Row values are JSON, except what JSON cannot say: bytes {"$b":base64}, non-finite
// numbers {"$n":"NaN"}, integers beyond 2^53 {"$i":"…"}, JSON documents {"$j":…}.
//
// Version 1 had no blob lines (its exports refused a workspace holding files); it is read
// still, its `blobs` and `blob_chunks` tables (empty) as any table.

import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { PassThrough, type Readable, type Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { TableInfo } from './catalog.ts';
import type { SqlFlavour } from '../sql/flavour.ts';

export const FORMAT = 'spemu-export';
export const FORMAT_VERSION = 2;
/** Versions this spemu imports. */
export const READABLE_VERSIONS = [1, 2];

export interface Header {
  format: typeof FORMAT;
  version: number;
  /** When and from what: for people reading the file. */
  created: string;
  source: SqlFlavour;
  spemu: string;
  /** The schema migrations the source had applied, in order: the import recreates exactly this schema, then migrates on. */
  migrations: string[];
}

export interface TableLine extends TableInfo {
  table: string;
  /** Rows at export time (the row lines that follow). */
  rows: number;
  /** How the table came to be: made by a migration, or at run time by spemu (recorded in its metadata), or neither. */
  origin: 'migration' | 'runtime' | 'other';
}

export interface EndLine { end: string; rows?: number; tables?: number; /** Version 2 on. */ blobs?: number }

export const gzipped = (path: string) => /\.gz$/i.test(path);

/** Lines out to a file (or stdout for `-`), through gzip for *.gz, honouring back-pressure. */
export class LineWriter {
  private readonly head: Transform;
  private readonly done: Promise<void>;
  private failure: unknown;

  /** `gzip`: compress (the default follows the name, which a caller writing aside may not want). */
  constructor(path: string, options: { gzip?: boolean; stdout?: Writable } = {}) {
    const stdout = options.stdout ?? process.stdout;
    this.head = options.gzip ?? gzipped(path) ? createGzip() : new PassThrough();
    if (path === '-') {
      // Standard output stays open after the export (it is the process's).
      this.head.pipe(stdout, { end: false });
      this.done = once(this.head, 'end').then(() => {});
    } else {
      this.done = pipeline(this.head, createWriteStream(path));
    }
    this.done.catch((e: unknown) => { this.failure = e; });
    this.head.on('error', (e) => { this.failure ??= e; });
  }

  /** Writes a chunk of whole lines; waits while the stream is full. */
  async write(text: string): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.head.write(text)) await Promise.race([once(this.head, 'drain'), this.done]);
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    this.head.end();
    await this.done;
    if (this.failure) throw this.failure;
  }
}

/** Lines in from a file (or stdin for `-`), through gunzip for *.gz. */
export function readLines(path: string, stdin: Readable = process.stdin): AsyncIterable<string> {
  const source = path === '-' ? stdin : createReadStream(path);
  const input = gzipped(path) ? source.pipe(createGunzip()) : source;
  if (gzipped(path)) source.on('error', (e: Error) => input.destroy(e));
  return createInterface({ input, crlfDelay: Infinity });
}

// ---- values

export function encodeValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : { $n: String(v) };
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : { $i: v.toString() };
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return { $b: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (v instanceof Date) return v.toISOString();
  return { $j: v };
}

export type Decoded = null | number | bigint | string | boolean | Buffer | { json: string };

export function decodeValue(v: unknown): Decoded {
  if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  const tagged = v as Record<string, unknown>;
  if (typeof tagged.$b === 'string') return Buffer.from(tagged.$b, 'base64');
  if (typeof tagged.$n === 'string') return Number(tagged.$n);
  if (typeof tagged.$i === 'string') return BigInt(tagged.$i);
  if ('$j' in tagged) return { json: JSON.stringify(tagged.$j) };
  throw new Error(`unreadable value in the export: ${JSON.stringify(v).slice(0, 80)}`);
}
