// Restoring a recycle bin entry (recycle-bin.ts): the item back in its list's table with the id,
// GUID, values, version numbers, file content and place it had, its past versions back in
// item_versions (the references the entry held pass to them), its attachments' count from the
// rows kept under its id; a folder's contents after it, shallowest first. The folder it was in
// is made again if it is gone (SharePoint recreates the path). A name taken meanwhile refuses
// the whole restore. A recycled list is unmarked, if no list has taken its title or URL.

import { fail } from '../../domain/errors.ts';
import { splitPath } from '../../domain/documents.ts';
import { sql } from 'kysely';
import type { Field, Item, List } from '../../domain/model.ts';
import { versionIdOf } from '../../domain/versions.ts';
import { RecycleBinItemType, type RecycleBinEntry, type Restored } from '../recycle-bin.ts';
import type { SqlSession } from './session.ts';
import { decodeRecycled, encodeItemSnapshot } from './snapshots.ts';
import { valuesToColumns } from './item-table.ts';
import { folderContentTypeId, SqlDocuments } from './documents.ts';
import { SqlItems } from './items.ts';
import { SqlFields } from './fields.ts';
import { listEntry, principalsOf, SqlLists } from './lists.ts';
import { notifyListChanged } from './webhook-outbox.ts';
import { urlKey } from './rows.ts';

export async function restoreEntry(s: SqlSession, entry: RecycleBinEntry, actorId: number, now: string): Promise<Restored> {
  if (entry.itemType === RecycleBinItemType.List) return restoreList(s, entry);
  const list = await new SqlLists(s).byId(entry.webId, entry.listId);
  if (!list) throw fail.listNotFoundById();
  return s.write([listEntry(list), ...principalsOf(list)], async (w) => {
    // The list's lock before the entry's rows (the order a list's delete takes them in), so the two never wait on each other.
    const docs = new SqlDocuments(w);
    await docs.lockList(list);
    const fields = await new SqlFields(w).of(list);
    const rows = await w.db.selectFrom('recycle_bin').select(['id', 'parent_id', 'data'])
      .where((eb) => eb.or([eb('id', '=', entry.id), eb('parent_id', '=', entry.id)])).execute();
    if (!rows.some((r) => r.parent_id == null)) throw fail.recycleBinItemNotFound();
    // Claimed first: a restore or purge racing this one (PostgreSQL) waits on these rows and then
    // finds them gone, so exactly one of them acts (the references the entries held now belong to
    // the item and its versions: nothing to release).
    const claimed = await w.db.deleteFrom('recycle_bin').where('id', 'in', rows.map((r) => String(r.id))).executeTakeFirst();
    if (Number(claimed.numDeletedRows) !== rows.length) throw fail.recycleBinItemNotFound();
    const decoded = rows.map((r) => ({ id: String(r.id), top: r.parent_id == null, ...decodeRecycled(String(r.data)) }));
    // The entry's own item first, then what was inside it from the top down (folders before what they hold).
    const depth = (i: Item) => (i.place.dir === '' ? 0 : i.place.dir.split('/').length);
    decoded.sort((a, b) => Number(b.top) - Number(a.top) || depth(a.item) - depth(b.item) || Number(b.item.place.folder) - Number(a.item.place.folder));
    const createdFolders: Item[] = [];
    const items: Item[] = [];
    for (const { item, versions } of decoded) {
      if (item.place.name !== null) {
        await ensureFolder(w, list, fields, item.place.dir, actorId, now, createdFolders);
        if (await docs.at(list, fields, item.place.dir, item.place.name)) throw fail.restoreNameTaken(await docs.webRelativeOf(list, item.place.dir, item.place.name));
      }
      await insertItem(w, list, fields, item);
      for (const v of versions) {
        await w.db.insertInto('item_versions').values({ list_row_id: list.rowId, item_id: item.id, ui_version: versionIdOf(v), data: encodeItemSnapshot(v) })
          .onConflict((oc) => oc.columns(['list_row_id', 'item_id', 'ui_version']).doNothing()).execute();
      }
      items.push((await new SqlItems(w).get(list, fields, item.id))!);
    }
    notifyListChanged(w, list);
    return { list, listRestored: false, items, createdFolders };
  });
}

async function insertItem(s: SqlSession, list: List, fields: Field[], item: Item): Promise<void> {
  const attachments = await s.db.selectFrom('attachments').select((eb) => eb.fn.countAll().as('n'))
    .where('list_row_id', '=', list.rowId).where('item_id', '=', item.id).executeTakeFirst();
  await s.db.insertInto(list.tableName).values({
    ...valuesToColumns(fields, item.values),
    id: item.id, guid: item.guid, content_type_id: item.contentTypeId, created: item.created, modified: item.modified,
    author_id: item.authorId, editor_id: item.editorId, version: item.version, ui_version: item.uiVersion, minor_version: item.minorVersion,
    fs_obj_type: item.place.folder ? 1 : 0, leaf_name: item.place.name, dir_path: item.place.dir,
    blob_id: item.file?.blobId ?? null, file_size: item.file?.size ?? null, checkin_comment: item.file ? item.file.checkInComment : null,
    attachment_count: Number(attachments?.n ?? 0),
  }).execute();
  await s.db.updateTable('lists').set({ item_count: sql`item_count + 1` }).where('row_id', '=', list.rowId).execute();
}

/** The folder `dir` of the list, made (with the folders above it) where it is gone. */
async function ensureFolder(s: SqlSession, list: List, fields: Field[], dir: string, actorId: number, now: string, made: Item[]): Promise<void> {
  if (dir === '') return;
  const { dir: parent, name } = splitPath(dir);
  const docs = new SqlDocuments(s);
  const there = await docs.at(list, fields, parent, name);
  if (there?.place.folder) return;
  if (there) throw fail.restoreNameTaken(await docs.webRelativeOf(list, parent, name));
  await ensureFolder(s, list, fields, parent, actorId, now, made);
  const id = await docs.insert(list, fields, { dir: parent, name, actorId, now }, { fs_obj_type: 1, content_type_id: folderContentTypeId(list.id) });
  made.push((await new SqlItems(s).get(list, fields, id))!);
}

async function restoreList(s: SqlSession, entry: RecycleBinEntry): Promise<Restored> {
  // Claimed first, before the metadata counter (the order a purge takes them in too): a racing
  // restore or purge of the entry (PostgreSQL) waits here and then finds it gone.
  const claimed = await s.db.deleteFrom('recycle_bin').where('id', '=', entry.id).executeTakeFirst();
  if (Number(claimed.numDeletedRows) !== 1) throw fail.recycleBinItemNotFound();
  const row = await s.db.selectFrom('lists').select('row_id').where('recycle_bin_id', '=', entry.id).executeTakeFirst();
  const list = row ? await new SqlLists(s).byRowId(Number(row.row_id)) : undefined;
  if (!list) throw fail.listNotFoundById();
  return s.metadataWrite([listEntry(list), ...principalsOf(list)], async (w) => {
    const lists = new SqlLists(w);
    if (await lists.byTitle(list.webId, list.title)) throw fail.listAlreadyExists();
    if (await lists.byUrl(list.webId, list.serverRelativeUrl)) throw fail.restoreNameTaken(list.serverRelativeUrl);
    await w.db.updateTable('lists').set({ recycle_bin_id: null, url_key: urlKey(list.serverRelativeUrl), title_key: list.title.toLowerCase() }).where('row_id', '=', list.rowId).execute();
    return { list, listRestored: true, items: [], createdFolders: [] };
  });
}
