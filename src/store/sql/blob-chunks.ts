// Bytes in the database (PostgreSQL): rows of `blob_chunks`, 1 MiB each, under a random key,
// so that any number of instances serve the same files with no shared disk. Each chunk is its
// own statement as it arrives (a 2 GB upload is never one transaction nor in memory); the
// `blobs` row that names the key is written once all of them are in (sql/blobs.ts), so a
// write that breaks off leaves chunks no row names, which `sweep` removes.

import { randomUUID, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { ByteRange, ByteStore } from '../blobs.ts';

export const CHUNK_BYTES = 1024 * 1024;

export class ChunkBytes implements ByteStore {
  constructor(private readonly db: Kysely<any>) {}

  async write(source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error) {
    const key = randomUUID();
    const hash = createHash('sha256');
    const created = new Date().toISOString();
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (all: boolean) => {
      while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
        const joined = Buffer.concat(pending, pendingBytes);
        const data = joined.subarray(0, Math.min(CHUNK_BYTES, joined.length));
        const rest = joined.subarray(data.length);
        await this.db.insertInto('blob_chunks').values({ storage_key: key, seq: seq++, data, created }).execute();
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
      }
    };
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > limit) throw tooLarge();
        hash.update(chunk);
        pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        pendingBytes += chunk.byteLength;
        await flush(false);
      }
      await flush(true);
    } catch (e) {
      await this.remove(key).catch(() => {});
      throw e;
    }
    return { key, sha256: hash.digest('hex'), size };
  }

  async read(key: string, size: number, range?: ByteRange): Promise<Readable | undefined> {
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    const db = this.db;
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
    return Readable.from(size === 0 ? [] : chunks(), { objectMode: false });
  }

  async remove(key: string): Promise<void> {
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
