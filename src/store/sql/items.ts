// Items on SQL, in their list's own table. Every write is one unit of work with the list's
// counters (ItemCount, next id, dates) and, for updates with versioning on, the past version
// it supersedes; since ItemCount and the dates are part of the cached list record, each
// write names its web's list entry.

import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { hasCalculated } from '../../domain/calculated.ts';
import type { Field, Item, List } from '../../domain/model.ts';
import { listContentTypeId } from '../../domain/templates.ts';
import { makesMinorVersions } from '../../domain/versions.ts';
import type { ItemPage, ItemPart, ItemQuery, ItemRepository, ItemWrite, RecycleGroup } from '../items.ts';
import { withCalculated } from './calculated.ts';
import { compileFilter } from './filter-compiler.ts';
import { columnList, foldsCase, rowToItem, selectColumns, sortExpression, valuesToColumns } from './item-table.ts';
import { keysetCondition } from './keyset.ts';
import { isPrincipalList, listEntry, principalsOf, PRINCIPALS, SqlLists } from './lists.ts';
import { DEFAULT_GROUP_RANGE } from '../../domain/principal-ids.ts';
import type { CacheName, SqlSession } from './session.ts';
import { FOLDER_SCOPES, folderScopesEntry, isUniqueItem } from './folder-scopes.ts';
import type { FolderScope } from '../role-assignments.ts';
import { SqlSites } from './sites.ts';
import { encodeRecycled } from './snapshots.ts';
import { binPath } from './recycle-bin.ts';
import { RecycleBinItemType } from '../recycle-bin.ts';
import { SqlVersions } from './versions.ts';
import { SqlBlobs } from './blobs.ts';
import { SqlAttachments } from './attachments.ts';
import { dropItemSocial } from './comments.ts';
import { notifyListChanged } from './webhook-outbox.ts';

/** Bound parameters per multi-row insert: under SQLite's 32,766 and PostgreSQL's 65,535. */
const BULK_PARAMETERS = 30_000;

/**
 * The version number a write moves an item to: the next minor one (a draft) in a library with
 * minor versions, else the next major one (minor 0) while versioning is on, else the same.
 */
export function nextVersion(list: List): Record<string, unknown> {
  if (makesMinorVersions(list)) return { minor_version: sql`minor_version + 1` };
  return list.enableVersioning ? { ui_version: sql`ui_version + 1`, minor_version: 0 } : {};
}

export class SqlItems implements ItemRepository {
  constructor(private readonly s: SqlSession) {}

  async query(list: List, fields: Field[], query: ItemQuery): Promise<ItemPage> {
    const flavour = this.s.flavour;
    const idKey = fields.find((f) => f.internalName === 'ID')!;
    const conditions: RawBuilder<unknown>[] = [];
    if (query.filter) {
      conditions.push(compileFilter(query.filter, {
        fields, lookups: query.lookups, flavour, text: query.filterText ?? '', listUrl: list.serverRelativeUrl,
      }).condition);
    }
    // Walking backwards (PagedPrev) flips every direction, then the page is reversed.
    const effective = query.orderBy.map((k) => ({ ...k, descending: query.backwards ? !k.descending : k.descending }));
    const idDescending = query.backwards ?? false;
    if (query.after) conditions.push(keysetCondition(effective, query.after, idDescending, flavour));
    const order = () => [
      ...effective.map((key) => sql`${sortExpression(key.field, flavour)} ${sql.raw(key.descending ? 'desc nulls last' : 'asc nulls first')}`),
      sql`${sql.ref(idKey.column)} ${sql.raw(idDescending ? 'desc' : 'asc')}`,
    ];
    // One SQL template rather than Kysely's query builder: this runs per request, and the
    // builder's cost grows with every selected column. The filter's values are bound
    // parameters, so equal filters share one prepared text.
    const columns = columnList(query.load ?? fields, query.parts);
    const compile = () => sql`select ${sql.raw(columns)} from ${sql.table(list.tableName)}${
      conditions.length ? sql` where ${sql.join(conditions, sql` and `)}` : sql``} order by ${sql.join(order(), sql`, `)} limit ${query.top + 1}`
      .compile(this.s.db);
    // A page with no condition (the first page of a list, in an order) binds its limit alone: its
    // text is kept by shape, as an item read's is, rather than compiled per request.
    let text: string, parameters: readonly unknown[];
    if (conditions.length === 0) {
      const keys = effective.map((k) => `${k.field.column}${foldsCase(k.field) ? '~' : ''}${k.descending ? '-' : '+'}`).join();
      text = this.s.shape(`page:${list.tableName}:${columns}:${keys}:${idDescending ? '-' : '+'}`, () => {
        const compiled = compile();
        if (compiled.parameters.length !== 1) throw new Error('a page without conditions binds its limit alone');
        return compiled;
      });
      parameters = [query.top + 1];
    } else {
      ({ sql: text, parameters } = compile());
    }
    const rows = await this.s.rows(text, parameters);
    const hasMore = rows.length > query.top;
    const items = rows.slice(0, query.top).map((r) => rowToItem(r, query.load ?? fields));
    if (query.backwards) items.reverse();
    return { items, hasMore };
  }

  get(list: List, fields: Field[], id: number, load: Field[] = fields, parts?: readonly ItemPart[]): Promise<Item | undefined> {
    // Ids are whole numbers an integer column holds (PostgreSQL refuses to compare with others).
    if (!Number.isSafeInteger(id)) return Promise.resolve(undefined);
    try {
      const text = this.s.shape(itemShapeKey(list, load, parts),
        (db) => db.selectFrom(list.tableName).select(selectColumns(load, parts)).where('id', '=', 0).compile());
      // SQLite outside a unit of work: the row at once, with no promise until the one returned.
      const now = this.s.rowNow(text, [id]);
      if (now !== undefined) return Promise.resolve(now ? rowToItem(now, load) : undefined);
      return this.s.rows(text, [id]).then(([row]) => (row ? rowToItem(row, load) : undefined));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The items of these ids, in no particular order. */
  getMany(list: List, fields: Field[], ids: number[], load: Field[] = fields): Promise<Item[]> {
    ids = [...new Set(ids.filter(Number.isSafeInteger))];
    if (ids.length === 0) return Promise.resolve([]);
    if (isPrincipalList(list) && !this.s.inTransaction) return this.principals(list, fields, ids);
    return this.readMany(list, ids, load);
  }

  private async readMany(list: List, ids: number[], load: Field[]): Promise<Item[]> {
    const columns = selectColumns(load);
    // One text for any number of ids: a JSON array (SQLite) or an array parameter (PostgreSQL).
    const postgres = this.s.flavour === 'postgres';
    const text = this.s.shape(`items:${list.tableName}:${columns.join()}`, (db) => db.selectFrom(list.tableName).select(columns)
      .where('id', 'in', postgres ? sql`(select unnest(${[]}::bigint[]))` : sql`(select value from json_each(${''}))`).compile());
    const rows = await this.s.rows(text, [postgres ? ids : JSON.stringify(ids)]);
    return rows.map((r) => rowToItem(r, load));
  }

  /**
   * Principals (rows of a User Information List) through the cache, whole rows under
   * `PRINCIPALS` (lists.ts): Author and Editor are expanded on most reads, and their rows
   * change only with the directory. The ids not yet cached are read in one query.
   */
  private principals(list: List, fields: Field[], ids: number[]): Promise<Item[]> {
    // Every one cached (Author and Editor of a read, as a rule): taken as they are, one promise in all.
    const cache = this.s.options.cache;
    const found: Item[] = [];
    for (const id of ids) {
      const row = cache.peek<Item | null>(PRINCIPALS, `${list.rowId}:${id}`);
      if (row === undefined) return this.loadPrincipals(list, fields, ids);
      if (row) found.push(row);
    }
    return Promise.resolve(found);
  }

  private async loadPrincipals(list: List, fields: Field[], ids: number[]): Promise<Item[]> {
    let loading: Promise<Map<number, Item>> | undefined;
    const loadAll = () => (loading ??= this.readMany(list, ids, fields).then((rows) => new Map(rows.map((r) => [r.id, r]))));
    const found = await Promise.all(ids.map((id) =>
      this.s.cached(PRINCIPALS, `${list.rowId}:${id}`, async () => (await loadAll()).get(id) ?? null)));
    return found.filter((item): item is Item => item !== null);
  }

  /**
   * A write to `list`'s items, naming the list's cached record (counters and dates); for a
   * User Information List also the cached principals, as a metadata write so that other
   * instances drop them too.
   */
  private writing<T>(list: List, write: (s: SqlSession) => Promise<T>, metadata: readonly CacheName[] = []): Promise<T> {
    // A write that changed something (not "no such item", not a lost If-Match) notifies the list's webhooks.
    const fn = async (s: SqlSession) => {
      const result = await write(s);
      if (result !== undefined && result !== 'conflict') notifyListChanged(s, list);
      return result;
    };
    return isPrincipalList(list) || metadata.length ? this.s.metadataWrite([listEntry(list), ...principalsOf(list), ...metadata], fn) : this.s.write([listEntry(list)], fn);
  }

  create(list: List, fields: Field[], write: ItemWrite): Promise<Item> {
    return this.writing(list, async (s) => {
      // The per-list counter hands out ids under the row lock: never reused, even after deletes.
      const counter = await s.db.updateTable('lists')
        .set({ next_item_id: advance(list, 1), item_count: sql`item_count + 1`, last_item_modified: write.now })
        .where('row_id', '=', list.rowId).returning(['next_item_id']).executeTakeFirstOrThrow();
      const id = Number(counter.next_item_id) - 1;
      const created = write.created ?? write.now;
      const modified = write.modified ?? created;
      const row = {
        id, guid: randomUUID(), content_type_id: listContentTypeId(list.baseTemplate, list.id), created, modified,
        author_id: write.authorId ?? write.actorId, editor_id: write.actorId, version: 1, ui_version: 1,
        ...valuesToColumns(fields, withCalculated(fields, write.values, { created, modified })),
      };
      await s.db.insertInto(list.tableName).values(row).execute();
      return (await new SqlItems(s).get(list, fields, id))!;
    });
  }

  createMany(list: List, fields: Field[], writes: ItemWrite[]): Promise<number> {
    return this.writing(list, async (s) => {
      const count = writes.length;
      const latest = writes.reduce((max, w) => (w.now > max ? w.now : max), '');
      const counter = await s.db.updateTable('lists')
        .set({ next_item_id: advance(list, count), item_count: sql`item_count + ${count}`, ...(count ? { last_item_modified: latest } : {}) })
        .where('row_id', '=', list.rowId).returning(['next_item_id']).executeTakeFirstOrThrow();
      const first = Number(counter.next_item_id) - count;
      const contentTypeId = listContentTypeId(list.baseTemplate, list.id);
      const rows = writes.map((write, i) => {
        const created = write.created ?? write.now;
        const modified = write.modified ?? created;
        return {
          id: first + i, guid: randomUUID(), content_type_id: contentTypeId, created, modified,
          author_id: write.authorId ?? write.actorId, editor_id: write.actorId, version: 1, ui_version: 1,
          ...valuesToColumns(fields, withCalculated(fields, write.values, { created, modified })),
        };
      });
      // Every row names every column (a field without a value is null, as in `create`), so
      // one multi-row statement fits all; chunks stay under the bound-parameter limits.
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const perChunk = Math.max(1, Math.floor(BULK_PARAMETERS / columns.length));
      for (let at = 0; at < rows.length; at += perChunk) {
        const chunk = rows.slice(at, at + perChunk).map((r) => Object.fromEntries(columns.map((c) => [c, (r as Record<string, unknown>)[c] ?? null])));
        await s.db.insertInto(list.tableName).values(chunk).execute();
      }
      return first;
    });
  }

  update(list: List, fields: Field[], id: number, write: ItemWrite, expectedVersion: number | null) {
    return this.writing(list, async (s): Promise<Item | 'conflict' | undefined> => {
      if (!Number.isSafeInteger(id)) return undefined;
      const items = new SqlItems(s);
      const newVersion = list.enableVersioning && !write.inPlace;
      await new SqlLists(s).lock(list);
      // The item as it was: with versioning on it becomes a past version; calculated columns are computed from it and the change.
      const before = newVersion || hasCalculated(fields) ? await items.get(list, fields, id) : undefined;
      const modified = write.modified ?? write.now;
      const values = before ? withCalculated(fields, write.values, { before, modified, created: write.created }) : write.values;
      const set = {
        ...valuesToColumns(fields, values),
        modified, editor_id: write.actorId,
        ...(write.created !== undefined ? { created: write.created } : {}), ...(write.authorId !== undefined ? { author_id: write.authorId } : {}),
        // An in-place update (bNewDocumentUpdate) keeps the version it changes.
        version: sql`version + 1`, ...(write.inPlace ? {} : nextVersion(list)),
      };
      let update = s.db.updateTable(list.tableName).set(set).where('id', '=', id);
      if (expectedVersion !== null) update = update.where('version', '=', expectedVersion);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return (await items.exists(list, id)) ? 'conflict' : undefined;
      if (before && newVersion) await new SqlVersions(s).keep(list, before);
      await s.db.updateTable('lists').set({ last_item_modified: write.now }).where('row_id', '=', list.rowId).execute();
      return items.get(list, fields, id);
    });
  }

  delete(list: List, fields: Field[], id: number, expectedVersion: number | null, now: string) {
    return this.remove(list, fields, id, expectedVersion, now, false);
  }

  /** Deletes the row; `kept`: for the recycle bin, which keeps the item's attachments, comments, likes and ratings under its id. */
  private remove(list: List, fields: Field[], id: number, expectedVersion: number | null, now: string, kept: boolean) {
    void fields;
    const bumpFirst = this.isCachedFolderScope(list, id);
    return this.writing(list, async (s): Promise<'deleted' | 'conflict' | undefined> => {
      if (!Number.isSafeInteger(id)) return undefined;
      await new SqlLists(s).lock(list);
      let del = s.db.deleteFrom(list.tableName).where('id', '=', id);
      if (expectedVersion !== null) del = del.where('version', '=', expectedVersion);
      const deleted = await del.returning(['blob_id', 'fs_obj_type']).execute();
      if (deleted.length === 0) return (await new SqlItems(s).exists(list, id)) ? 'conflict' : undefined;
      // A folder with unique permissions the cache did not name (not read since it changed): its
      // list's folder scopes go on every instance all the same, the counter bumped after the list's row was locked.
      if (!bumpFirst && Number(deleted[0]!.fs_obj_type) === 1 && await isUniqueItem(s, list, id)) {
        await s.metadataWrite([folderScopesEntry(list.rowId)], async () => undefined);
      }
      // A file's content (and each past version's) is no longer named by this item.
      if (deleted[0]!.blob_id != null) await new SqlBlobs(s, s.options.bytes).release(String(deleted[0]!.blob_id));
      await new SqlVersions(s).dropAll(list, id);
      if (!kept) {
        await new SqlAttachments(s).dropAll(list, id);
        await dropItemSocial(s.db, list.rowId, id);
      }
      await s.db.updateTable('lists').set({ item_count: sql`item_count - 1`, last_item_deleted: now })
        .where('row_id', '=', list.rowId).execute();
      return 'deleted';
    }, bumpFirst ? [folderScopesEntry(list.rowId)] : []);
  }

  recycle(list: List, fields: Field[], id: number, actorId: number, now: string, group: RecycleGroup = {}): Promise<string | undefined> {
    const bumpFirst = this.isCachedFolderScope(list, id);
    return this.writing(list, async (s) => {
      const items = new SqlItems(s);
      await new SqlLists(s).lock(list);
      const item = await items.get(list, fields, id);
      if (!item) return undefined;
      // The item goes to the recycle bin with its version history, as SharePoint recycles both together.
      const versions = await new SqlVersions(s).of(list, id);
      await items.remove(list, fields, id, null, now, true);
      // The recycle bin names the content the deleted item and its versions had (released when the entry is purged).
      const blobs = new SqlBlobs(s, s.options.bytes);
      for (const kept of [item, ...versions]) if (kept.file) await blobs.addRef(kept.file.blobId);
      const web = await new SqlSites(s).web(list.webId);
      const recycleId = group.binId ?? randomUUID();
      const listPath = binPath(list.serverRelativeUrl);
      const named = item.place.name !== null;
      await s.db.insertInto('recycle_bin').values({
        id: recycleId, site_id: web!.siteId, list_id: list.id, item_id: id,
        title: named && list.baseType === 1 ? item.place.name : (item.values.Title ?? item.place.name ?? null),
        deleted_by: actorId, deleted: now, data: encodeRecycled(item, versions),
        web_id: list.webId, item_state: 1, parent_id: group.parentId ?? null, author_id: item.authorId, size: item.file?.size ?? 0,
        item_type: item.place.folder ? RecycleBinItemType.Folder : item.file ? RecycleBinItemType.File : RecycleBinItemType.ListItem,
        // A list item's leaf is SharePoint's `<id>_.000`; a file's or folder's its name.
        leaf_name: named ? item.place.name : `${id}_.000`, dir_name: item.place.dir ? `${listPath}/${item.place.dir}` : listPath,
      }).execute();
      return recycleId;
    }, bumpFirst ? [folderScopesEntry(list.rowId)] : []);
  }

  /**
   * Whether the item is one of the list's folders with unique permissions as the cache holds
   * them (nothing read): then its delete is a metadata write from the start, its counter bumped
   * before the list's row is locked, the order every metadata write takes (on PostgreSQL two
   * writers taking them in opposite orders could deadlock). A delete the cache cannot tell
   * about finds out once it has removed a folder (delete, above).
   */
  private isCachedFolderScope(list: List, id: number): boolean {
    return this.s.options.cache.peek<readonly FolderScope[]>(FOLDER_SCOPES, String(list.rowId))?.some((f) => f.id === id) ?? false;
  }

  async reserveId(list: List): Promise<number> {
    // The same counter `create` takes ids from, under the same row lock: a reserved id is never
    // handed out again. One statement: atomic without a transaction of its own.
    const counter = await this.s.db.updateTable('lists').set({ next_item_id: advance(list, 1) })
      .where('row_id', '=', list.rowId).returning(['next_item_id']).executeTakeFirstOrThrow();
    return Number(counter.next_item_id) - 1;
  }

  private async exists(list: List, id: number): Promise<boolean> {
    const text = this.s.shape(`exists:${list.tableName}`, (db) => db.selectFrom(list.tableName).select('id').where('id', '=', 0).compile());
    return (await this.s.rows(text, [id])).length > 0;
  }
}

/**
 * The shape key of an item read by id, per load array and parts array (a plan's, kept while the
 * metadata stands): made once rather than per read, and the same string each time, so the
 * lookups of its text and of the prepared statement hash nothing anew. The text itself stays
 * in ShapeTexts, which DDL clears.
 */
function itemShapeKey(list: List, load: Field[], parts: readonly ItemPart[] | undefined): string {
  let byParts = itemShapeKeys.get(load);
  if (!byParts) itemShapeKeys.set(load, (byParts = new Map()));
  const partsKey = parts ?? WHOLE_ITEM;
  let entry = byParts.get(partsKey);
  if (entry === undefined || entry.table !== list.tableName) {
    // Bounded: a load array meets a few parts arrays (one per projection).
    if (byParts.size >= 64) byParts.clear();
    byParts.set(partsKey, (entry = { table: list.tableName, key: `item:${list.tableName}:${selectColumns(load, parts).join()}` }));
  }
  return entry.key;
}
const WHOLE_ITEM: readonly ItemPart[] = [];
const itemShapeKeys = new WeakMap<Field[], Map<readonly ItemPart[], { table: string; key: string }>>();

/**
 * The list's counter moved past `count` new ids, which are then the `count` below it. A User
 * Information List's run never takes the default groups' ids (domain/principal-ids.ts): one
 * statement, so racing writers cannot slip between the check and the move.
 */
function advance(list: List, count: number): RawBuilder<unknown> {
  if (!isPrincipalList(list)) return sql`next_item_id + ${count}`;
  const { first, last } = DEFAULT_GROUP_RANGE;
  return sql`case when next_item_id <= ${sql.lit(last)} and next_item_id + ${count} > ${sql.lit(first)} then ${sql.lit(last + 1)} + ${count} else next_item_id + ${count} end`;
}
