// Moving and copying files and folders on SQL. A move inside one list renames in place: the
// item keeps its id and UniqueId, and a folder's descendants take its new path in one update.
// A copy (or a move to another list) writes new rows that name the same blobs, so no byte is
// copied. Each runs in one unit of work with both lists' counter rows locked.

import { sql } from 'kysely';
import { fail } from '../../domain/errors.ts';
import { isWithin, joinPath, placePath } from '../../domain/documents.ts';
import type { Field, Item, List } from '../../domain/model.ts';
import { listContentTypeId } from '../../domain/templates.ts';
import type { PlaceTarget, TransferOptions } from '../documents.ts';
import { SqlBlobs } from './blobs.ts';
import { belowFolder, folderContentTypeId, SqlDocuments } from './documents.ts';
import { rowToItem, selectColumns } from './item-table.ts';
import { SqlItems } from './items.ts';
import { folderScopesEntry } from './folder-scopes.ts';
import { listEntry } from './lists.ts';
import type { SqlSession } from './session.ts';
import { notifyListChanged } from './webhook-outbox.ts';

interface ListOf { list: List; fields: Field[] }

export class SqlDocumentMoves {
  constructor(private readonly s: SqlSession) {}

  /**
   * A metadata write: moving or renaming a folder changes the path of every folder below it, so
   * the lists' cached folder scopes (folder-scopes.ts) go on every instance. Moves are rare; a
   * file's move pays the counter's bump too rather than a read to tell it from a folder first.
   */
  move(source: ListOf, from: string, target: ListOf, to: PlaceTarget, options: TransferOptions): Promise<Item | undefined> {
    const changes = [listEntry(source.list), listEntry(target.list), folderScopesEntry(source.list.rowId), folderScopesEntry(target.list.rowId)];
    return this.s.metadataWrite(changes, async (s) => {
      const moves = new SqlDocumentMoves(s);
      const begun = await moves.begin(source, from, target, to, options);
      if (!begun) return undefined;
      const { item, dest } = begun;
      if (source.list.rowId !== target.list.rowId) {
        // To another list: the rows are copied (same UniqueId, authors and times) and the originals deleted.
        const id = await moves.copyTree(source, item, target, dest, { ...options, keepIdentity: true, keepAuthor: true });
        await moves.deleteTree(source, item, options.now);
        return new SqlItems(s).get(target.list, target.fields, id);
      }
      const oldPath = placePath(item.place);
      const newPath = joinPath(dest.dir, dest.name);
      if (item.place.folder && oldPath.toLowerCase() !== newPath.toLowerCase() && isWithin(newPath, oldPath)) throw fail.moveIntoItself(oldPath);
      const table = source.list.tableName;
      await s.db.updateTable(table).set({
        leaf_name: dest.name, dir_path: dest.dir, version: sql`version + 1`,
        ...(options.keepEditor ? {} : { modified: options.now, editor_id: options.actorId }),
      }).where('id', '=', item.id).execute();
      if (item.place.folder) {
        // Everything below takes the new path in place of the old one at the start of its dir_path.
        const n = Array.from(oldPath).length;
        await s.db.updateTable(table).set({ dir_path: sql`cast(${newPath} as text) || substr(dir_path, ${n + 1})` })
          .where(belowFolder(s, oldPath)).execute();
      }
      await s.db.updateTable('lists').set({ last_item_modified: options.now }).where('row_id', '=', source.list.rowId).execute();
      notifyListChanged(s, source.list);
      return new SqlItems(s).get(source.list, source.fields, item.id);
    });
  }

  copy(source: ListOf, from: string, target: ListOf, to: PlaceTarget, options: TransferOptions): Promise<Item | undefined> {
    return this.s.write([listEntry(source.list), listEntry(target.list)], async (s) => {
      const moves = new SqlDocumentMoves(s);
      const begun = await moves.begin(source, from, target, to, options);
      if (!begun) return undefined;
      const { item, dest } = begun;
      if (item.place.folder && source.list.rowId === target.list.rowId && isWithin(joinPath(dest.dir, dest.name), placePath(item.place))) {
        throw fail.moveIntoItself(placePath(item.place));
      }
      const id = await moves.copyTree(source, item, target, dest, options);
      return new SqlItems(s).get(target.list, target.fields, id);
    });
  }

  /**
   * Inside the write: both lists locked, the source found (undefined if it is not there), the
   * destination's folder there and its name free — a file there replaced when `overwrite`
   * says so. The item, and the destination with its folder's path as stored (its folders' own case).
   */
  private async begin(source: ListOf, from: string, target: ListOf, to: PlaceTarget, options: TransferOptions): Promise<{ item: Item; dest: PlaceTarget } | undefined> {
    const documents = new SqlDocuments(this.s);
    // Locked in row order, so two transfers between the same lists cannot wait on each other.
    for (const list of [source.list, target.list].sort((a, b) => a.rowId - b.rowId)) await documents.lockList(list);
    const at = splitAt(from);
    const item = at.name ? await documents.at(source.list, source.fields, at.dir, at.name) : undefined;
    if (!item) return undefined;
    const dir = await documents.checkFolder(target.list, target.fields, to.dir);
    const taken = await documents.at(target.list, target.fields, dir, to.name);
    if (taken && !(source.list.rowId === target.list.rowId && taken.id === item.id)) {
      if (!options.overwrite || taken.place.folder || item.place.folder) throw fail.fileExists(await documents.webRelativeOf(target.list, dir, to.name));
      if (taken.file?.checkedOutBy != null && taken.file.checkedOutBy !== options.actorId) throw fail.fileCheckedOut(await documents.webRelativeOf(target.list, dir, to.name), 'another user');
      await new SqlItems(this.s).delete(target.list, target.fields, taken.id, null, options.now);
    }
    return { item, dest: { dir, name: to.name } };
  }

  /** New rows in the target for `item` and (a folder) everything below it; the new root's id. */
  private async copyTree(source: ListOf, item: Item, target: ListOf, to: PlaceTarget, options: TransferOptions): Promise<number> {
    const oldPath = placePath(item.place);
    const newPath = joinPath(to.dir, to.name);
    const rootId = await this.copyOne(source, item, target, to.dir, to.name, options);
    if (!item.place.folder) return rootId;
    const rows = await this.s.db.selectFrom(source.list.tableName).select(selectColumns(source.fields)).where(belowFolder(this.s, oldPath)).execute();
    // Parents before children: a folder's row exists before what it holds is written.
    const descendants = rows.map((r) => rowToItem(r, source.fields)).sort((a, b) => depth(a) - depth(b) || a.id - b.id);
    for (const d of descendants) {
      await this.copyOne(source, d, target, newPath + d.place.dir.slice(oldPath.length), d.place.name!, options);
    }
    return rootId;
  }

  private async copyOne(source: ListOf, item: Item, target: ListOf, dir: string, name: string, options: TransferOptions): Promise<number> {
    if (item.file && !(await new SqlBlobs(this.s, this.s.options.bytes).addRef(item.file.blobId))) throw new Error(`blob ${item.file.blobId} is gone`);
    const sameList = source.list.rowId === target.list.rowId;
    return new SqlDocuments(this.s).insert(target.list, target.fields, { dir, name, actorId: options.actorId, now: options.now, values: item.values }, {
      fs_obj_type: item.place.folder ? 1 : 0,
      content_type_id: sameList ? item.contentTypeId
        : item.place.folder ? folderContentTypeId(target.list.id) : listContentTypeId(target.list.baseTemplate, target.list.id),
      ...(item.file ? { blob_id: item.file.blobId, file_size: item.file.size } : {}),
      ...(options.keepAuthor ? { author_id: item.authorId, created: item.created } : {}),
      ...(options.keepEditor ? { editor_id: item.editorId, modified: item.modified } : {}),
      ...(options.keepIdentity ? { guid: item.guid } : {}),
    });
  }

  /** Deletes `item` and (a folder) everything below it, releasing their content. */
  private async deleteTree(source: ListOf, item: Item, now: string): Promise<void> {
    const items = new SqlItems(this.s);
    const rows = item.place.folder ? await this.s.db.selectFrom(source.list.tableName).select('id').where(belowFolder(this.s, placePath(item.place))).execute() : [];
    for (const { id } of [...rows, { id: item.id }]) await items.delete(source.list, source.fields, Number(id), null, now);
  }
}

const depth = (item: Item): number => (item.place.dir ? item.place.dir.split('/').length : 0);

function splitAt(path: string): { dir: string; name: string } {
  const i = path.lastIndexOf('/');
  return i < 0 ? { dir: '', name: path } : { dir: path.slice(0, i), name: path.slice(i + 1) };
}

