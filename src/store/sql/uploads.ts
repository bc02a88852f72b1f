// Chunked uploads on SQL: a row of `upload_sessions` per upload (migration 0011); each chunk
// is a blob the row references, so chunks survive a restart between requests and a broken
// upload's bytes are collected once it ends or is purged.

import type { BlobRef } from '../blobs.ts';
import type { UploadRepository, UploadSession } from '../uploads.ts';
import { SqlBlobs } from './blobs.ts';
import type { SqlSession } from './session.ts';

export class SqlUploads implements UploadRepository {
  constructor(private readonly s: SqlSession) {}

  start(session: { id: string; listRowId: number; itemId: number; userId: number; chunk: BlobRef; now: string }): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const inserted = await s.db.insertInto('upload_sessions').values({
        id: session.id, list_row_id: session.listRowId, item_id: session.itemId, user_id: session.userId,
        next_offset: session.chunk.size, chunks: JSON.stringify([session.chunk.id]), touched: session.now,
      }).onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
      if (!inserted) return false;
      if (!(await new SqlBlobs(s, s.options.bytes).addRef(session.chunk.id))) throw new Error(`blob ${session.chunk.id} is gone`);
      return true;
    });
  }

  async get(id: string): Promise<UploadSession | undefined> {
    const row = await this.s.db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  append(id: string, offset: number, chunk: BlobRef, now: string): Promise<UploadSession | 'offset' | undefined> {
    return this.s.transaction(async (s) => {
      // Locks the row (PostgreSQL) so two chunks racing for one offset cannot both land.
      const locked = await s.db.updateTable('upload_sessions').set({ touched: now }).where('id', '=', id).returningAll().executeTakeFirst();
      if (!locked) return undefined;
      const session = toSession(locked);
      if (session.nextOffset !== offset) return 'offset';
      if (!(await new SqlBlobs(s, s.options.bytes).addRef(chunk.id))) throw new Error(`blob ${chunk.id} is gone`);
      const chunks = [...session.chunks, chunk.id];
      const nextOffset = session.nextOffset + chunk.size;
      await s.db.updateTable('upload_sessions').set({ chunks: JSON.stringify(chunks), next_offset: nextOffset }).where('id', '=', id).execute();
      return { ...session, chunks, nextOffset };
    });
  }

  async purge(before: string): Promise<number> {
    const stale = await this.s.db.selectFrom('upload_sessions').select('id').where('touched', '<', before).execute();
    let ended = 0;
    for (const { id } of stale) if (await this.end(String(id))) ended++;
    return ended;
  }

  end(id: string): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const ended = await s.db.deleteFrom('upload_sessions').where('id', '=', id).returning('chunks').executeTakeFirst();
      if (!ended) return false;
      const blobs = new SqlBlobs(s, s.options.bytes);
      for (const blobId of JSON.parse(String(ended.chunks)) as string[]) await blobs.release(blobId);
      return true;
    });
  }
}

function toSession(row: Record<string, unknown>): UploadSession {
  return {
    id: String(row.id), listRowId: Number(row.list_row_id), itemId: Number(row.item_id), userId: Number(row.user_id),
    nextOffset: Number(row.next_offset), chunks: JSON.parse(String(row.chunks)) as string[],
  };
}
