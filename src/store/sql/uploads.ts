// Chunked uploads on SQL: a row of `upload_sessions` per upload (migrations 0011, 0013) naming
// the storage key its chunks are appended to, so chunks survive a restart between requests;
// housekeeping removes a broken upload's bytes once it ends or is purged (sql/blobs.ts sweeps
// bytes that neither a blob nor an upload names). Uploads begun before 0013 hold one blob per
// chunk (`chunks`), referenced while they last.

import type { BlobRef } from '../blobs.ts';
import { KeyedQueue } from '../running-hashes.ts';
import type { UploadRepository, UploadSession } from '../uploads.ts';
import { SqlBlobs } from './blobs.ts';
import type { SqlSession } from './session.ts';

/** Per process, as the bytes an upload appends to are. */
const queue = new KeyedQueue();

export class SqlUploads implements UploadRepository {
  constructor(private readonly s: SqlSession) {}

  exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    return queue.run(id, task);
  }

  async start(session: { id: string; listRowId: number; itemId: number; userId: number; storageKey: string; size: number; now: string }): Promise<boolean> {
    const inserted = await this.s.write([], (s) => s.db.insertInto('upload_sessions').values({
      id: session.id, list_row_id: session.listRowId, item_id: session.itemId, user_id: session.userId,
      next_offset: session.size, chunks: '[]', storage_key: session.storageKey, touched: session.now,
    }).onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst());
    return inserted !== undefined;
  }

  async get(id: string): Promise<UploadSession | undefined> {
    const row = await this.s.db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  append(id: string, offset: number, nextOffset: number, now: string): Promise<UploadSession | 'offset' | undefined> {
    return this.s.transaction(async (s) => {
      // Locks the row (PostgreSQL) so two chunks racing for one offset cannot both land.
      const locked = await s.db.updateTable('upload_sessions').set({ touched: now }).where('id', '=', id).returningAll().executeTakeFirst();
      if (!locked) return undefined;
      const session = toSession(locked);
      if (session.nextOffset !== offset) return 'offset';
      await s.db.updateTable('upload_sessions').set({ next_offset: nextOffset }).where('id', '=', id).execute();
      return { ...session, nextOffset };
    });
  }

  finish(id: string, offset: number, content: { sha256: string; size: number }) {
    return this.s.transaction(async (s): Promise<{ blob: BlobRef; redundant: boolean; storageKey: string } | 'offset' | undefined> => {
      const row = await s.db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const session = toSession(row);
      if (session.nextOffset !== offset || session.storageKey === undefined) return 'offset';
      // Conditional, so that of two racing finishes (other instances) one ends the upload.
      const ended = await s.db.deleteFrom('upload_sessions').where('id', '=', id).where('next_offset', '=', offset).returning('id').executeTakeFirst();
      if (!ended) return 'offset';
      const blobs = new SqlBlobs(s, s.options.bytes);
      return { ...(await blobs.adopt(session.storageKey, content)), storageKey: session.storageKey };
    });
  }

  convert(id: string, offset: number, storageKey: string): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const row = await s.db.updateTable('upload_sessions').set({ storage_key: storageKey, chunks: '[]' })
        .where('id', '=', id).where('next_offset', '=', offset).where('storage_key', 'is', null).returning('chunks').executeTakeFirst();
      if (!row) return false;
      const blobs = new SqlBlobs(s, s.options.bytes);
      for (const blobId of JSON.parse(String(row.chunks)) as string[]) await blobs.release(blobId);
      return true;
    });
  }

  async purge(before: string): Promise<number> {
    const stale = await this.s.db.selectFrom('upload_sessions').select('id').where('touched', '<', before).execute();
    let ended = 0;
    for (const { id } of stale) if (await this.end(String(id))) ended++;
    return ended;
  }

  async end(id: string): Promise<boolean> {
    const ended = await this.s.transaction(async (s) => {
      const row = await s.db.deleteFrom('upload_sessions').where('id', '=', id).returningAll().executeTakeFirst();
      if (!row) return undefined;
      const session = toSession(row);
      const blobs = new SqlBlobs(s, s.options.bytes);
      for (const blobId of session.chunks) await blobs.release(blobId);
      return session;
    });
    if (!ended) return false;
    // Once the row is gone nothing appends to the bytes; a crash before this leaves them to the sweep.
    if (ended.storageKey !== undefined) await new SqlBlobs(this.s, this.s.options.bytes).discard(ended.storageKey);
    return true;
  }
}

function toSession(row: Record<string, unknown>): UploadSession {
  return {
    id: String(row.id), listRowId: Number(row.list_row_id), itemId: Number(row.item_id), userId: Number(row.user_id),
    nextOffset: Number(row.next_offset), storageKey: row.storage_key == null ? undefined : String(row.storage_key),
    chunks: JSON.parse(String(row.chunks)) as string[],
  };
}
