// Bytes in the database (PostgreSQL): rows of `blob_chunks`, 1 MiB each, under a random key,
// so that any number of instances serve the same files with no shared disk. Each chunk is its
// own statement as it arrives (a 2 GB upload is never one transaction nor in memory); the
// `blobs` row that names the key is written once all of them are in (sql/blobs.ts), so a
// write that breaks off leaves chunks no row names, which `sweep` removes.
//
// A chunked upload appends to one key: its rows stay 1 MiB each (the last row of one append is
// topped up by the next), so that a range is found by arithmetic, and when the upload finishes
// the key is the blob's as it is.

import { randomUUID, createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { ByteRange, ByteStore } from '../blobs.ts';
import { RunningHashes } from '../running-hashes.ts';

export const CHUNK_BYTES = 1024 * 1024;

export class ChunkBytes implements ByteStore {
  private readonly hashes = new RunningHashes();

  constructor(private readonly db: Kysely<any>) {}

  async write(source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error) {
    const key = randomUUID();
    const hash = createHash('sha256');
    try {
      const size = await this.stream(key, 0, source, limit, tooLarge, hash);
      return { key, sha256: hash.digest('hex'), size };
    } catch (e) {
      await this.remove(key).catch(() => {});
      throw e;
    }
  }

  async append(key: string | undefined, offset: number, source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error) {
    if (key === undefined && offset !== 0) throw new Error('a new upload starts at offset 0');
    const target = key ?? randomUUID();
    const running = await this.hashes.at(target, offset, () => this.readBack(target, offset));
    // What a broken append left past the recorded offset goes (the row the offset is in is rewritten).
    await this.db.deleteFrom('blob_chunks').where('storage_key', '=', target).where('seq', '>', Math.floor(offset / CHUNK_BYTES))
      .execute();
    let size;
    try {
      size = await this.stream(target, offset, source, limit, tooLarge, running.hash);
    } catch (e) {
      // A first chunk that failed leaves nothing: no upload names its rows.
      if (key === undefined) await this.remove(target).catch(() => {});
      throw e;
    }
    running.size = size;
    this.hashes.keep(target, running);
    return { key: target, size };
  }

  digest(key: string, size: number): Promise<string> {
    return this.hashes.digest(key, size, () => this.readBack(key, size));
  }

  private async readBack(key: string, size: number): Promise<AsyncIterable<Uint8Array>> {
    const bytes = await this.read(key, size, { start: 0, end: size - 1 });
    if (!bytes) throw new Error(`the bytes under ${key} are missing`);
    return bytes;
  }

  /**
   * Writes `source` under `key` from `offset` (the rows before it stay; the one it falls in is
   * rewritten with its head), hashing what arrives; the size under `key` afterwards. One row's
   * statement is in flight while the next row's bytes are read.
   */
  private async stream(key: string, offset: number, source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error, hash: Hash): Promise<number> {
    const created = new Date().toISOString();
    let seq = Math.floor(offset / CHUNK_BYTES);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const head = offset % CHUNK_BYTES;
    if (head > 0) {
      const row = await this.db.selectFrom('blob_chunks').select('data').where('storage_key', '=', key).where('seq', '=', seq).executeTakeFirst();
      const data = row?.data as Buffer | undefined;
      if (!data || data.length < head) throw new Error(`blob chunk ${key}/${seq} is missing`);
      pending = [data.subarray(0, head)];
      pendingBytes = head;
    }
    let inFlight: Promise<unknown> = Promise.resolve();
    const send = async (all: boolean) => {
      while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
        const joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
        const data = joined.subarray(0, Math.min(CHUNK_BYTES, joined.length));
        const rest = joined.subarray(data.length);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
        await inFlight;
        // A Buffer parameter goes to PostgreSQL in binary (pg-protocol), not as hex text.
        inFlight = this.db.insertInto('blob_chunks').values({ storage_key: key, seq: seq++, data, created })
          .onConflict((oc) => oc.columns(['storage_key', 'seq']).doUpdateSet((eb) => ({ data: eb.ref('excluded.data'), created: eb.ref('excluded.created') })))
          .execute();
      }
    };
    let size = offset;
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > limit) throw tooLarge();
        hash.update(chunk);
        pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        pendingBytes += chunk.byteLength;
        await send(false);
      }
      await send(true);
    } finally {
      await inFlight.catch(() => {});
    }
    await inFlight;
    return size;
  }

  async read(key: string, size: number, range?: ByteRange): Promise<Readable | undefined> {
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const db = this.db;
    // One row at a time, bytea as node-postgres reads it (hex text). Asking for the next row while
    // one is sent on, and rows as base64 (encode(data, 'base64')), read faster without HTTP but
    // showed no gain over HTTP on the benchmark's machine (docs/benchmarks.md, notes).
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = Math.floor(start / CHUNK_BYTES); seq * CHUNK_BYTES <= end; seq++) {
        const row = await db.selectFrom('blob_chunks').select('data').where('storage_key', '=', key).where('seq', '=', seq).executeTakeFirst();
        if (!row) throw new Error(`blob chunk ${key}/${seq} is missing`);
        const data = row.data as Buffer;
        const offset = seq * CHUNK_BYTES;
        yield data.subarray(Math.max(0, start - offset), Math.min(data.length, end - offset + 1));
      }
    }
    const first = await db.selectFrom('blob_chunks').select('seq').where('storage_key', '=', key).limit(1).executeTakeFirst();
    if (!first && size > 0) return undefined;
    return Readable.from(size === 0 || end < start ? [] : chunks(), { objectMode: false });
  }

  async remove(key: string): Promise<void> {
    this.hashes.forget(key);
    await this.db.deleteFrom('blob_chunks').where('storage_key', '=', key).execute();
  }

  async sweep(before: Date, named: (key: string) => Promise<boolean>): Promise<number> {
    const keys = await this.db.selectFrom('blob_chunks').select('storage_key').distinct()
      .where('created', '<', before.toISOString()).execute();
    let removed = 0;
    for (const { storage_key: key } of keys) {
      if (await named(String(key))) continue;
      await this.remove(String(key));
      removed++;
    }
    return removed;
  }
}
