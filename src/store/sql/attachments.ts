// Attachments on SQL: the `attachments` table (migration 0012) and the item's
// attachment_count, changed together in one unit of work under the list's counter row.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { List } from '../../domain/model.ts';
import type { Attachment, AttachmentRepository, PutOptions } from '../attachments.ts';
import type { BlobRef } from '../blobs.ts';
import { SqlBlobs } from './blobs.ts';
import { binaryCollation } from './flavour.ts';
import { listEntry, SqlLists } from './lists.ts';
import type { SqlSession } from './session.ts';
import { notifyListChanged } from './webhook-outbox.ts';

const toAttachment = (r: Record<string, unknown>): Attachment => ({
  name: String(r.name), blobId: String(r.blob_id), size: Number(r.size), created: String(r.created), modified: String(r.modified),
  uniqueId: String(r.unique_id), version: Number(r.version),
});

export class SqlAttachments implements AttachmentRepository {
  constructor(private readonly s: SqlSession) {}

  async of(list: List, itemId: number): Promise<Attachment[]> {
    if (!Number.isSafeInteger(itemId)) return [];
    const rows = await this.s.db.selectFrom('attachments').selectAll()
      .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).orderBy('name').execute();
    return rows.map(toAttachment);
  }

  async get(list: List, itemId: number, name: string): Promise<Attachment | undefined> {
    if (!Number.isSafeInteger(itemId)) return undefined;
    const c = sql.raw(binaryCollation(this.s.flavour));
    const row = await this.s.db.selectFrom('attachments').selectAll()
      .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId)
      .where(sql<boolean>`lower(name)${c} = lower(${name})${c}`).executeTakeFirst();
    return row ? toAttachment(row) : undefined;
  }

  put(list: List, itemId: number, name: string, blob: BlobRef, options: PutOptions) {
    return this.s.write([listEntry(list)], async (s): Promise<Attachment | 'exists' | 'missing' | 'noItem' | { conflict: Attachment }> => {
      await new SqlLists(s).lock(list);
      const here = new SqlAttachments(s);
      const item = await s.db.selectFrom(list.tableName).select('id').where('id', '=', itemId).executeTakeFirst();
      if (!item) return 'noItem';
      const existing = await here.get(list, itemId, name);
      if (existing ? !options.replace : options.replace) return existing ? 'exists' : 'missing';
      // Under the list's lock: no other write to this attachment can come between this check and the update.
      const expected = options.expectedVersion ?? null;
      if (existing && expected !== null && expected !== existing.version) return { conflict: existing };
      const blobs = new SqlBlobs(s, s.options.bytes);
      if (!(await blobs.addRef(blob.id))) throw new Error(`blob ${blob.id} is gone: put it again`);
      notifyListChanged(s, list);
      if (existing) {
        await blobs.release(existing.blobId);
        const version = existing.version + 1;
        await s.db.updateTable('attachments').set({ blob_id: blob.id, size: blob.size, modified: options.now, version })
          .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).where('name', '=', existing.name).execute();
        return { ...existing, blobId: blob.id, size: blob.size, modified: options.now, version };
      }
      const uniqueId = randomUUID();
      await s.db.insertInto('attachments').values({
        list_row_id: list.rowId, item_id: itemId, name, blob_id: blob.id, size: blob.size, created: options.now, modified: options.now, unique_id: uniqueId, version: 1,
      }).execute();
      await s.db.updateTable(list.tableName).set({ attachment_count: sql`attachment_count + 1` }).where('id', '=', itemId).execute();
      return { name, blobId: blob.id, size: blob.size, created: options.now, modified: options.now, uniqueId, version: 1 };
    });
  }

  delete(list: List, itemId: number, name: string): Promise<boolean> {
    return this.s.write([listEntry(list)], async (s) => {
      await new SqlLists(s).lock(list);
      const existing = await new SqlAttachments(s).get(list, itemId, name);
      if (!existing) return false;
      notifyListChanged(s, list);
      await s.db.deleteFrom('attachments').where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).where('name', '=', existing.name).execute();
      await s.db.updateTable(list.tableName).set({ attachment_count: sql`attachment_count - 1` }).where('id', '=', itemId).execute();
      await new SqlBlobs(s, s.options.bytes).release(existing.blobId);
      return true;
    });
  }

  async dropAll(list: List, itemId: number): Promise<void> {
    const dropped = await this.s.db.deleteFrom('attachments').where('list_row_id', '=', list.rowId).where('item_id', '=', itemId)
      .returning('blob_id').execute();
    const blobs = new SqlBlobs(this.s, this.s.options.bytes);
    for (const { blob_id: id } of dropped) await blobs.release(String(id));
  }
}
