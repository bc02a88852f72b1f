// Blobs on SQL: the `blobs` table holds one row per distinct content (its SHA-256), where its
// bytes are (a ByteStore key), its size, how many rows name it and when it was last put. The
// bytes themselves are in the ByteStore: files of the workspace (SQLite) or chunks in the
// database (PostgreSQL).
//
// Why it is safe to collect. A put either touches the existing row of its SHA-256 (one
// atomic statement) or records its own bytes; collection deletes a row only if nothing names
// it *and* it was not put within the grace period, in one atomic statement, and then removes
// the bytes that row named. A put that raced it either touched the row first (so it is not
// deleted) or found no row and recorded bytes of its own (never the ones being removed).
// References move in the caller's transaction, so a committed row's blob has refs > 0.

import { sql } from 'kysely';
import type { Readable } from 'node:stream';
import type { BlobRef, BlobStore, ByteRange, ByteStore } from '../blobs.ts';
import type { SqlSession } from './session.ts';

export class SqlBlobs implements BlobStore {
  constructor(private readonly s: SqlSession, private readonly bytes: ByteStore) {}

  async put(source: AsyncIterable<Uint8Array>, options: { limit: number; tooLarge: () => Error }): Promise<BlobRef> {
    // Bytes first, outside any unit of work (on SQLite's one connection, inside one they would wait for it).
    if (this.s.inTransaction) throw new Error('blobs are put before the unit of work that names them');
    const written = await this.bytes.write(source, options.limit, options.tooLarge);
    const now = new Date().toISOString();
    // The blob stands on its own until a row names it.
    const db = this.s.db;
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await db.updateTable('blobs').set({ touched: now }).where('id', '=', written.sha256).returning(['storage_key', 'size']).executeTakeFirst();
      if (existing) {
        if (String(existing.storage_key) !== written.key) await this.bytes.remove(written.key);
        return { id: written.sha256, size: Number(existing.size) };
      }
      const inserted = await db.insertInto('blobs')
        .values({ id: written.sha256, storage_key: written.key, size: written.size, refs: 0, touched: now })
        .onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
      if (inserted) return { id: written.sha256, size: written.size };
      // Another put of the same bytes recorded its row between the two statements: use that one.
    }
    throw new Error(`could not record blob ${written.sha256}`);
  }

  append(key: string | undefined, offset: number, source: AsyncIterable<Uint8Array>, options: { limit: number; tooLarge: () => Error }) {
    if (this.s.inTransaction) throw new Error('bytes are appended before the unit of work that records them');
    return this.bytes.append(key, offset, source, options.limit, options.tooLarge);
  }

  digest(key: string, size: number): Promise<string> {
    return this.bytes.digest(key, size);
  }

  async adopt(key: string, content: { sha256: string; size: number }): Promise<{ blob: BlobRef; redundant: boolean }> {
    const now = new Date().toISOString();
    const db = this.s.db;
    const blob = { id: content.sha256, size: content.size };
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await db.updateTable('blobs').set({ touched: now }).where('id', '=', content.sha256).returning('storage_key').executeTakeFirst();
      if (existing) return { blob, redundant: String(existing.storage_key) !== key };
      const inserted = await db.insertInto('blobs').values({ id: content.sha256, storage_key: key, size: content.size, refs: 0, touched: now })
        .onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
      if (inserted) return { blob, redundant: false };
    }
    throw new Error(`could not record blob ${content.sha256}`);
  }

  async discard(key: string): Promise<void> {
    const named = await this.s.db.selectFrom('blobs').select('id').where('storage_key', '=', key).executeTakeFirst();
    if (!named) await this.bytes.remove(key);
  }

  async open(id: string, range?: ByteRange): Promise<Readable | undefined> {
    const row = await this.row(id);
    return row ? this.bytes.read(row.key, row.size, range) : undefined;
  }

  async size(id: string): Promise<number | undefined> {
    return (await this.row(id))?.size;
  }

  async addRef(id: string): Promise<boolean> {
    const result = await this.s.db.updateTable('blobs').set({ refs: sql`refs + 1` }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(id: string): Promise<void> {
    await this.s.db.updateTable('blobs').set({ refs: sql`refs - 1` }).where('id', '=', id).where('refs', '>', 0).execute();
  }

  /** Gives up `count` references to each blob, one statement per blob. */
  async releaseAll(counts: ReadonlyMap<string, number>): Promise<void> {
    for (const [id, count] of counts) {
      await this.s.db.updateTable('blobs').set({ refs: sql`case when refs > ${count} then refs - ${count} else 0 end` }).where('id', '=', id).execute();
    }
  }

  async collect(before: Date): Promise<{ blobs: number; leftovers: number }> {
    const cutoff = before.toISOString();
    const candidates = await this.s.db.selectFrom('blobs').select('id').where('refs', '=', 0).where('touched', '<', cutoff).execute();
    let blobs = 0;
    for (const { id } of candidates) {
      const deleted = await this.s.db.deleteFrom('blobs').where('id', '=', id).where('refs', '=', 0).where('touched', '<', cutoff)
        .returning('storage_key').executeTakeFirst();
      if (!deleted) continue;
      await this.bytes.remove(String(deleted.storage_key));
      blobs++;
    }
    // Bytes are named by a blob, or by an upload in progress (its chunks so far).
    const leftovers = await this.bytes.sweep(before, async (key) =>
      (await this.s.db.selectFrom('blobs').select('id').where('storage_key', '=', key).executeTakeFirst()) !== undefined
      || (await this.s.db.selectFrom('upload_sessions').select('id').where('storage_key', '=', key).executeTakeFirst()) !== undefined);
    return { blobs, leftovers };
  }

  private async row(id: string): Promise<{ key: string; size: number } | undefined> {
    if (!/^[0-9a-f]{64}$/.test(id)) return undefined;
    const row = await this.s.db.selectFrom('blobs').select(['storage_key', 'size']).where('id', '=', id).executeTakeFirst();
    return row ? { key: String(row.storage_key), size: Number(row.size) } : undefined;
  }
}
