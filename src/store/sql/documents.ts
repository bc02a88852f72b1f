// Files and folders on SQL: rows of the list's item table with a place (fs_obj_type,
// leaf_name, dir_path: migration 0009) and, for files, a blob. Every write takes the list's
// counter row first (as item writes do), so the "is the name free?" check and the insert
// that takes it cannot interleave with another writer's; the unique index on the place is
// the database's own guard behind it.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { fail } from '../../domain/errors.ts';
import { joinPath, placePath, splitPath, urlInList, webRelativeUrl } from '../../domain/documents.ts';
import type { Field, Item, List, StoredValue } from '../../domain/model.ts';
import { MODERATION_STATUS_FIELD } from '../../domain/moderation.ts';
import { makesMinorVersions } from '../../domain/versions.ts';
import { nextVersion } from './items.ts';
import { listContentTypeId } from '../../domain/templates.ts';
import type { DocumentRepository, NewPlacedItem, PlaceTarget, TransferOptions } from '../documents.ts';
import { SqlDocumentMoves } from './document-moves.ts';
import type { BlobRef } from '../blobs.ts';
import { binaryCollation } from './flavour.ts';
import { withCalculated } from './calculated.ts';
import { rowToItem, selectColumns, valuesToColumns } from './item-table.ts';
import { SqlItems } from './items.ts';
import { folderScopesEntry } from './folder-scopes.ts';
import { listEntry } from './lists.ts';
import type { SqlSession } from './session.ts';
import { SqlVersions } from './versions.ts';
import { SqlBlobs } from './blobs.ts';
import { SqlSites } from './sites.ts';
import { notifyListChanged } from './webhook-outbox.ts';

/** The content type of folders in a list: 0x0120 (Folder), then the list's own suffix. */
export const folderContentTypeId = (listId: string): string => `0x012000${listId.replace(/-/g, '').toUpperCase()}`;

export class SqlDocuments implements DocumentRepository {
  constructor(private readonly s: SqlSession) {}

  async at(list: List, fields: Field[], dir: string, name: string): Promise<Item | undefined> {
    const c = sql.raw(binaryCollation(this.s.flavour));
    const rows = await this.s.db.selectFrom(list.tableName).select(selectColumns(fields))
      .where(sql<boolean>`lower(dir_path)${c} = lower(${dir})${c} and lower(leaf_name)${c} = lower(${name})${c}`)
      .execute();
    return rows[0] ? rowToItem(rows[0], fields) : undefined;
  }

  async byUniqueId(list: List, fields: Field[], uniqueId: string): Promise<Item | undefined> {
    const rows = await this.s.db.selectFrom(list.tableName).select(selectColumns(fields))
      .where('guid', '=', uniqueId).where('leaf_name', 'is not', null).execute();
    return rows[0] ? rowToItem(rows[0], fields) : undefined;
  }

  async children(list: List, fields: Field[], dir: string, options: { kind?: 'folder' | 'file'; top: number; afterId?: number }) {
    const c = sql.raw(binaryCollation(this.s.flavour));
    let query = this.s.db.selectFrom(list.tableName).select(selectColumns(fields))
      .where(sql<boolean>`lower(dir_path)${c} = lower(${dir})${c}`)
      .where('leaf_name', 'is not', null);
    if (options.kind) query = query.where('fs_obj_type', '=', options.kind === 'folder' ? 1 : 0);
    if (options.afterId !== undefined) query = query.where('id', '>', options.afterId);
    const rows = await query.orderBy('id').limit(options.top + 1).execute();
    return { items: rows.slice(0, options.top).map((r) => rowToItem(r, fields)), hasMore: rows.length > options.top };
  }

  async below(list: List, fields: Field[], path: string): Promise<Item[]> {
    const rows = await this.s.db.selectFrom(list.tableName).select(selectColumns(fields)).where(belowFolder(this.s, path)).orderBy('id').execute();
    return rows.map((r) => rowToItem(r, fields));
  }

  async metrics(list: List, path: string) {
    let query = this.s.db.selectFrom(list.tableName)
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(file_size), 0)`.as('bytes'), sql<string | null>`max(modified)`.as('last')])
      .where('fs_obj_type', '=', 0).where('blob_id', 'is not', null);
    if (path) query = query.where(belowFolder(this.s, path));
    const row = await query.executeTakeFirst();
    return { files: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0), lastModified: row?.last == null ? undefined : String(row.last) };
  }

  async count(list: List, dir: string): Promise<number> {
    const c = sql.raw(binaryCollation(this.s.flavour));
    const row = await this.s.db.selectFrom(list.tableName).select(sql<number>`count(*)`.as('n'))
      .where(sql<boolean>`lower(dir_path)${c} = lower(${dir})${c}`).where('leaf_name', 'is not', null).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  createFolder(list: List, fields: Field[], folder: NewPlacedItem): Promise<Item> {
    return this.s.write([listEntry(list)], async (s) => {
      const here = new SqlDocuments(s);
      const dir = await here.takeName(list, fields, folder.dir, folder.name);
      const id = await here.insert(list, fields, { ...folder, dir }, { fs_obj_type: 1, content_type_id: folderContentTypeId(list.id) });
      return (await new SqlItems(s).get(list, fields, id))!;
    });
  }

  putFile(list: List, fields: Field[], file: NewPlacedItem & { blob: BlobRef; overwrite: boolean; check?: ((existing: Item | undefined) => void) | undefined }) {
    return this.s.write([listEntry(list)], async (s): Promise<{ item: Item; created: boolean }> => {
      const here = new SqlDocuments(s);
      const blobs = new SqlBlobs(s, s.options.bytes);
      await here.lockList(list);
      const existing = await here.at(list, fields, file.dir, file.name);
      file.check?.(existing);
      if (existing && (existing.place.folder || !file.overwrite)) throw fail.fileExists(await here.webRelativeOf(list, file.dir, file.name));
      if (!(await blobs.addRef(file.blob.id))) throw new Error(`blob ${file.blob.id} is gone: put it again`);
      if (!existing) {
        const dir = await here.checkFolder(list, fields, file.dir);
        const id = await here.insert(list, fields, { ...file, dir }, {
          fs_obj_type: 0, content_type_id: listContentTypeId(list.baseTemplate, list.id), blob_id: file.blob.id, file_size: file.blob.size,
          // A new file in a library with minor versions is the draft 0.1.
          ...(makesMinorVersions(list) ? { ui_version: 0, minor_version: 1 } : {}),
        });
        return { item: (await new SqlItems(s).get(list, fields, id))!, created: true };
      }
      // New content for the file: its past content stays with the version it becomes, or is released.
      if (list.enableVersioning) await new SqlVersions(s).keep(list, existing);
      else if (existing.file) await blobs.release(existing.file.blobId);
      await s.db.updateTable(list.tableName).set({
        blob_id: file.blob.id, file_size: file.blob.size, modified: file.now, editor_id: file.actorId,
        version: sql`version + 1`, ...nextVersion(list),
        ...valuesToColumns(fields, withCalculated(fields, file.values ?? {}, { before: existing, modified: file.now })),
      }).where('id', '=', existing.id).execute();
      await s.db.updateTable('lists').set({ last_item_modified: file.now }).where('row_id', '=', list.rowId).execute();
      notifyListChanged(s, list);
      return { item: (await new SqlItems(s).get(list, fields, existing.id))!, created: false };
    });
  }

  setCheckOut(list: List, id: number, change: { holder: number | null; expected?: number | null; comment?: string; now: string; actorId: number }): Promise<boolean> {
    return this.s.write([listEntry(list)], async (s) => {
      let update = s.db.updateTable(list.tableName).set({
        checkout_user_id: change.holder,
        ...(change.comment !== undefined ? { checkin_comment: change.comment, version: sql`version + 1`, modified: change.now, editor_id: change.actorId } : {}),
      }).where('id', '=', id).where('blob_id', 'is not', null);
      if (change.expected === null) update = update.where('checkout_user_id', 'is', null);
      else if (change.expected !== undefined) update = update.where('checkout_user_id', '=', change.expected);
      const changed = Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
      if (changed) notifyListChanged(s, list);
      return changed;
    });
  }

  setModeration(list: List, fields: Field[], target: number | 'undecided', values: Record<string, StoredValue>): Promise<number> {
    return this.s.write([listEntry(list)], async (s) => {
      const columns = valuesToColumns(fields, values);
      const status = fields.find((f) => f.internalName === MODERATION_STATUS_FIELD);
      if (!status) return 0;
      const update = target === 'undecided'
        ? s.db.updateTable(list.tableName).set(columns).where(status.column, 'is', null)
        : s.db.updateTable(list.tableName).set({ ...columns, version: sql`version + 1` }).where('id', '=', target).where('blob_id', 'is not', null);
      const changed = Number((await update.executeTakeFirst()).numUpdatedRows);
      if (changed) notifyListChanged(s, list);
      return changed;
    });
  }

  renumber(list: List, fields: Field[], id: number, from: { major: number; minor: number }, to: { major: number; minor: number },
    write: { actorId: number; now: string; comment?: string; values?: Record<string, StoredValue> }): Promise<Item | undefined> {
    return this.s.write([listEntry(list)], async (s) => {
      const items = new SqlItems(s);
      await new SqlDocuments(s).lockList(list);
      const before = await items.get(list, fields, id);
      if (!before?.file || before.uiVersion !== from.major || before.minorVersion !== from.minor) return undefined;
      if (list.enableVersioning) await new SqlVersions(s).keep(list, before);
      await s.db.updateTable(list.tableName).set({
        ui_version: to.major, minor_version: to.minor, version: sql`version + 1`, modified: write.now, editor_id: write.actorId,
        ...(write.comment !== undefined ? { checkin_comment: write.comment } : {}), ...valuesToColumns(fields, withCalculated(fields, write.values ?? {}, { before, modified: write.now })),
      }).where('id', '=', id).execute();
      await s.db.updateTable('lists').set({ last_item_modified: write.now }).where('row_id', '=', list.rowId).execute();
      notifyListChanged(s, list);
      return items.get(list, fields, id);
    });
  }

  move(source: { list: List; fields: Field[] }, from: string, target: { list: List; fields: Field[] }, to: PlaceTarget, options: TransferOptions) {
    return new SqlDocumentMoves(this.s).move(source, from, target, to, options);
  }

  copy(source: { list: List; fields: Field[] }, from: string, target: { list: List; fields: Field[] }, to: PlaceTarget, options: TransferOptions) {
    return new SqlDocumentMoves(this.s).copy(source, from, target, to, options);
  }

  /** A metadata write: the folder, or one below it, may have unique permissions (the list's cached folder scopes go on every instance). */
  deleteFolder(list: List, fields: Field[], path: string, now: string): Promise<number> {
    return this.s.metadataWrite([listEntry(list), folderScopesEntry(list.rowId)], async (s) => {
      const here = new SqlDocuments(s);
      await here.lockList(list);
      const { dir, name } = splitPath(path);
      const folder = name ? await here.at(list, fields, dir, name) : undefined;
      if (!folder?.place.folder) return 0;
      const below = await s.db.selectFrom(list.tableName).select('id').where(belowFolder(s, placePath(folder.place))).execute();
      const items = new SqlItems(s);
      // Each delete releases the file's content and its versions' (items.ts).
      for (const { id } of [...below, { id: folder.id }]) await items.delete(list, fields, Number(id), null, now);
      return below.length + 1;
    });
  }

  // ---- the steps of a write, for this file's writes and moves.ts: each runs inside a unit of work.

  /** Inside a write: the list's counter row locked, the name checked free and its folder there (its path as stored). */
  async takeName(list: List, fields: Field[], dir: string, name: string): Promise<string> {
    await this.lockList(list);
    if (await this.at(list, fields, dir, name)) throw fail.fileExists(await this.webRelativeOf(list, dir, name));
    return this.checkFolder(list, fields, dir);
  }

  /** The folder `dir`'s path in the case its folders were given (as SharePoint shows FileDirRef), or folderNotFound. */
  async checkFolder(list: List, fields: Field[], dir: string): Promise<string> {
    if (dir === '') return '';
    const { dir: parent, name } = splitPath(dir);
    const folder = await this.at(list, fields, parent, name);
    if (!folder?.place.folder) throw fail.folderNotFound(this.urlOf(list, parent, name));
    return placePath(folder.place);
  }

  /** The list's counter row, locked until the unit of work ends (SQLite's writer is alone already). */
  async lockList(list: List): Promise<void> {
    await this.s.db.updateTable('lists').set({ next_item_id: sql`next_item_id` }).where('row_id', '=', list.rowId).execute();
  }

  async insert(list: List, fields: Field[], placed: NewPlacedItem, extra: Record<string, unknown>): Promise<number> {
    const counter = await this.s.db.updateTable('lists')
      .set({ next_item_id: sql`next_item_id + 1`, item_count: sql`item_count + 1`, last_item_modified: placed.now })
      .where('row_id', '=', list.rowId).returning(['next_item_id']).executeTakeFirstOrThrow();
    const id = Number(counter.next_item_id) - 1;
    const created = placed.created ?? placed.now;
    const values = withCalculated(fields, placed.values ?? {}, { created, modified: placed.now });
    await this.s.db.insertInto(list.tableName).values({
      id, guid: randomUUID(), created, modified: placed.now, author_id: placed.authorId ?? placed.actorId, editor_id: placed.actorId,
      version: 1, ui_version: 1, leaf_name: placed.name, dir_path: placed.dir,
      ...valuesToColumns(fields, values), ...extra,
    }).execute();
    notifyListChanged(this.s, list);
    return id;
  }

  /** Server-relative URL of a place, for messages. */
  private urlOf(list: List, dir: string, name: string): string {
    return urlInList(list.serverRelativeUrl, joinPath(dir, name));
  }

  /** The place relative to its web, as fileExists names it. */
  async webRelativeOf(list: List, dir: string, name: string): Promise<string> {
    return webRelativeUrl((await new SqlSites(this.s).web(list.webId))?.serverRelativeUrl ?? '', this.urlOf(list, dir, name));
  }
}

/** Rows below the folder at `path` (at any depth): their dir_path is the path, or starts with it and a '/'. */
export function belowFolder(s: SqlSession, path: string) {
  const c = sql.raw(binaryCollation(s.flavour));
  return sql<boolean>`(lower(dir_path)${c} = lower(${path})${c} or substr(lower(dir_path), 1, ${Array.from(path).length + 1})${c} = lower(${`${path}/`})${c})`;
}
