// The recycle bin on SQL (recycle_bin, columns of 0001 and 0040). An entry's `data` is the item
// and its past versions as snapshots (snapshots.ts); while it is in the bin it holds one
// reference to each file content those name (blobs.ts), and its attachments, comments, likes
// and ratings stay in their tables under its item id (never handed out again), so that a
// restore gives everything back and a purge releases it all. A folder's contents are entries
// of their own naming the folder's (`parent_id`). A recycled list keeps its rows and tables,
// marked with its entry's id (`lists.recycle_bin_id`), which every look-up of lists skips.

import { randomUUID } from 'node:crypto';
import { fail } from '../../domain/errors.ts';
import type { List } from '../../domain/model.ts';
import { RecycleBinItemType, type RecycleBinEntry, type RecycleBinRepository, type Restored } from '../recycle-bin.ts';
import type { SqlSession } from './session.ts';
import { decodeRecycled } from './snapshots.ts';
import { SqlBlobs } from './blobs.ts';
import { SqlAttachments } from './attachments.ts';
import { dropItemSocial } from './comments.ts';
import { listEntry, principalsOf, SqlLists } from './lists.ts';
import { SqlSites } from './sites.ts';
import { restoreEntry } from './recycle-restore.ts';

/** Server-relative without its leading slash, as SharePoint's DirName and LeafName paths are. */
export const binPath = (serverRelativeUrl: string): string => serverRelativeUrl.replace(/^\/+/, '');

export function rowToEntry(r: Record<string, unknown>): RecycleBinEntry {
  return {
    id: String(r.id), siteId: String(r.site_id), webId: String(r.web_id ?? ''), listId: String(r.list_id), itemId: Number(r.item_id),
    title: String(r.title ?? r.leaf_name ?? ''), itemType: Number(r.item_type), itemState: Number(r.item_state),
    leafName: String(r.leaf_name ?? ''), dirName: String(r.dir_name ?? ''), size: Number(r.size ?? 0),
    authorId: Number(r.author_id ?? 0), deletedBy: Number(r.deleted_by), deleted: String(r.deleted),
  };
}

export class SqlRecycleBin implements RecycleBinRepository {
  constructor(private readonly s: SqlSession) {}

  async of(siteId: string): Promise<RecycleBinEntry[]> {
    const rows = await this.s.db.selectFrom('recycle_bin').selectAll().where('site_id', '=', siteId).where('parent_id', 'is', null)
      .orderBy('deleted', 'desc').orderBy('id').execute();
    return rows.map(rowToEntry);
  }

  async get(siteId: string, id: string): Promise<RecycleBinEntry | undefined> {
    const row = await this.s.db.selectFrom('recycle_bin').selectAll().where('site_id', '=', siteId).where('id', '=', id.toLowerCase())
      .where('parent_id', 'is', null).executeTakeFirst();
    return row ? rowToEntry(row) : undefined;
  }

  async moveToSecondStage(siteId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const moved = await this.s.db.updateTable('recycle_bin').set({ item_state: 2 })
      .where('site_id', '=', siteId).where('item_state', '=', 1).where('parent_id', 'is', null).where('id', 'in', ids.map((i) => i.toLowerCase())).executeTakeFirst();
    return Number(moved.numUpdatedRows);
  }

  purge(siteId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.s.transaction(async (s) => {
      let count = 0;
      for (const id of ids) {
        const entry = await new SqlRecycleBin(s).get(siteId, id);
        if (!entry) continue;
        count++;
        if (entry.itemType === RecycleBinItemType.List) {
          // Claimed first (as a restore does): a racing restore that took it leaves nothing to delete,
          // never its list restored meanwhile.
          const claimed = await s.db.deleteFrom('recycle_bin').where('id', '=', entry.id).executeTakeFirst();
          if (Number(claimed.numDeletedRows) !== 1) continue;
          const row = await s.db.selectFrom('lists').select('row_id').where('recycle_bin_id', '=', entry.id).executeTakeFirst();
          const list = row ? await new SqlLists(s).byRowId(Number(row.row_id)) : undefined;
          // Deleting the list drops the bin's entries of its items too (dropListEntries).
          if (list) await new SqlLists(s).delete(list);
        } else {
          await dropEntries(s, await s.db.selectFrom('recycle_bin').select(['id', 'list_id', 'item_id', 'data'])
            .where((eb) => eb.or([eb('id', '=', entry.id), eb('parent_id', '=', entry.id)])).execute());
        }
      }
      return count;
    });
  }

  restore(entry: RecycleBinEntry, actorId: number, now: string): Promise<Restored> {
    return this.s.transaction((s) => restoreEntry(s, entry, actorId, now));
  }

  recycleList(list: List, actorId: number, now: string): Promise<string> {
    return this.s.metadataWrite([listEntry(list), ...principalsOf(list)], async (s) => {
      const web = await new SqlSites(s).web(list.webId);
      const id = randomUUID();
      // Its title and URL are free meanwhile (each is unique in its web): their keys name the entry until a restore sets them back.
      // Only a list not recycled (or deleted) already: a racing request's recycle found it first.
      const marked = await s.db.updateTable('lists').set({ recycle_bin_id: id, url_key: `recycled:${id}`, title_key: `recycled:${id}` })
        .where('row_id', '=', list.rowId).where('recycle_bin_id', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) throw fail.listNotFoundById();
      const path = binPath(list.serverRelativeUrl);
      const cut = path.lastIndexOf('/');
      await s.db.insertInto('recycle_bin').values({
        id, site_id: web!.siteId, web_id: list.webId, list_id: list.id, item_id: 0, title: list.title, deleted_by: actorId, deleted: now,
        data: '{}', item_type: RecycleBinItemType.List, item_state: 1, leaf_name: path.slice(cut + 1), dir_name: cut < 0 ? '' : path.slice(0, cut),
        size: 0, author_id: actorId, parent_id: null,
      }).execute();
      return id;
    });
  }
}

/**
 * Entries' rows gone for good: the content references their snapshots hold released, and the
 * attachments, comments, likes and ratings kept under their item ids dropped (where their list
 * is still there: a deleted list took them with it).
 */
export async function dropEntries(s: SqlSession, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const blobs = new SqlBlobs(s, s.options.bytes);
  for (const row of rows) {
    // Deleted first: a purge or restore racing this one (PostgreSQL) waits on the row and then
    // finds it gone; only the one that deleted it releases what it held.
    const deleted = await s.db.deleteFrom('recycle_bin').where('id', '=', String(row.id)).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) continue;
    if (row.data && String(row.data) !== '{}') {
      const { item, versions } = decodeRecycled(String(row.data));
      for (const kept of [item, ...versions]) if (kept.file) await blobs.release(kept.file.blobId);
      const list = await s.db.selectFrom('lists').select('row_id').where('id', '=', String(row.list_id)).executeTakeFirst();
      if (list) {
        await new SqlAttachments(s).dropAll({ rowId: Number(list.row_id) } as List, Number(row.item_id));
        await dropItemSocial(s.db, Number(list.row_id), Number(row.item_id));
      }
    }
  }
}

/** A list deleted for good: the bin's entries of its items (and its own entry) go with it, their content released. */
export async function dropListEntries(s: SqlSession, list: List): Promise<void> {
  const rows = await s.db.selectFrom('recycle_bin').select(['id', 'list_id', 'item_id', 'data']).where('list_id', '=', list.id).execute();
  // The list's tables are gone already: only the snapshots' references are left to release.
  const blobs = new SqlBlobs(s, s.options.bytes);
  for (const row of rows) {
    if (row.data && String(row.data) !== '{}') {
      const { item, versions } = decodeRecycled(String(row.data));
      for (const kept of [item, ...versions]) if (kept.file) await blobs.release(kept.file.blobId);
    }
  }
  await s.db.deleteFrom('recycle_bin').where('list_id', '=', list.id).execute();
}
