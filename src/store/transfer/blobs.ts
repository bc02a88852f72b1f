// Files' contents in an export (format.ts, version 2): each blob a line naming it (its SHA-256
// id, size, references and when last put), then its bytes in base64, at most a MiB of bytes a
// line. The two backends keep bytes differently (a SQLite workspace's blobs/ folder,
// PostgreSQL's blob_chunks rows), so they never travel as table rows: the export reads them
// through the source's ByteStore and the import writes them through the target's, recording a
// `blobs` row with the target's own storage key. Ids are kept, so every row naming a blob still
// does; the import hashes what it writes and refuses bytes that are not the id's, or too few.

import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ByteStore } from '../blobs.ts';
import type { LineWriter } from './format.ts';

/** Bytes per line (a 1 MiB line of bytes is 1.4 MB of base64). */
export const BYTES_PER_LINE = 1024 * 1024;

/** A blob's line: the `blobs` row without its storage key, which is each backend's own. */
export interface BlobLine { blob: string; size: number; refs: number; touched: string }
/** A line of a blob's bytes. */
export interface BytesLine { bytes: string }

const SHA256 = /^[0-9a-f]{64}$/;

/** Writes every blob a row names (refs > 0: the others are collection's), by id; how many and their bytes. */
export async function exportBlobs(db: Kysely<any>, bytes: ByteStore, out: LineWriter): Promise<{ blobs: number; bytes: number }> {
  let after = '';
  let count = 0;
  let total = 0;
  for (;;) {
    const rows = await db.selectFrom('blobs').select(['id', 'storage_key', 'size', 'refs', 'touched'])
      .where('refs', '>', 0).where('id', '>', after).orderBy('id').limit(100).execute();
    for (const row of rows) {
      const line: BlobLine = { blob: String(row.id), size: Number(row.size), refs: Number(row.refs), touched: String(row.touched) };
      await out.write(`${JSON.stringify(line)}\n`);
      await exportBytes(line, String(row.storage_key), bytes, out);
      count++;
      total += line.size;
    }
    if (rows.length < 100) return { blobs: count, bytes: total };
    after = String(rows.at(-1)!.id);
  }
}

/** The blob's bytes as lines, checked on the way: a damaged source is refused, not copied. */
async function exportBytes(line: BlobLine, key: string, bytes: ByteStore, out: LineWriter): Promise<void> {
  const stream = await bytes.read(key, line.size);
  if (!stream) {
    throw new Error(`The bytes of file content ${line.blob} are not where the export reads them (a SQLite workspace's blobs folder, or the database's blob_chunks); nothing was written.`);
  }
  const hash = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    await out.write(`${JSON.stringify({ bytes: Buffer.concat(pending, pendingBytes).toString('base64') } satisfies BytesLine)}\n`);
    pending = [];
    pendingBytes = 0;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    for (let at = 0; at < chunk.length;) {
      const part = chunk.subarray(at, at + BYTES_PER_LINE - pendingBytes);
      pending.push(part);
      pendingBytes += part.length;
      at += part.length;
      if (pendingBytes === BYTES_PER_LINE) await flush();
    }
  }
  await flush();
  const sha256 = hash.digest('hex');
  if (size !== line.size || sha256 !== line.blob) {
    throw new Error(`The workspace's copy of file content ${line.blob} is damaged (${size} bytes hashing to ${sha256}, not ${line.size} bytes with that hash); nothing was written.`);
  }
}

/** Why a blob line is not one, or undefined. */
export function blobLineProblem(line: BlobLine): string | undefined {
  if (typeof line.blob !== 'string' || !SHA256.test(line.blob)) return 'its id is not a SHA-256';
  if (!Number.isSafeInteger(line.size) || line.size < 0) return 'its size is not a byte count';
  if (!Number.isSafeInteger(line.refs) || line.refs < 0) return 'its reference count is not a count';
  if (typeof line.touched !== 'string') return 'it has no time it was put';
  return undefined;
}

/**
 * Writes one blob's bytes (`parts`, decoded from its lines) to the target and records its row.
 * `refuse` makes the error to throw; the bytes written are removed when refused.
 */
export async function importBlob(db: Kysely<any>, bytes: ByteStore, line: BlobLine, parts: AsyncIterable<Uint8Array>, refuse: (message: string) => Error): Promise<void> {
  const written = await bytes.write(parts, line.size, () => refuse(`File content ${line.blob} has more bytes than its size, ${line.size}.`));
  if (written.size !== line.size || written.sha256 !== line.blob) {
    await bytes.remove(written.key);
    if (written.size < line.size) throw refuse(`File content ${line.blob} has ${written.size} of its ${line.size} bytes: the export file is cut short or damaged.`);
    throw refuse(`File content ${line.blob} is damaged in the export file: its bytes hash to ${written.sha256}.`);
  }
  await db.insertInto('blobs').values({ id: line.blob, storage_key: written.key, size: line.size, refs: line.refs, touched: line.touched }).execute();
}
