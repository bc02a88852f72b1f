// Lists on SQL (a recycled list, marked with its bin entry's id, is found by none of the look-ups
// by web: recycle-bin.ts). A list's record is read on nearly every request, so a web's lists are cached
// as one entry (look-ups by id, title and URL search it). Where other instances write too,
// the entry stays coherent for what metadata writes change (they are recorded for the others),
// but ItemCount and the item dates move with every item write on any instance: `withCounters`
// reads those fresh for the few answers that show them.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { List, NewList, Web } from '../../domain/model.ts';
import { templateInfo, USER_INFO_LIST_TEMPLATE } from '../../domain/templates.ts';
import { urlPrefix } from '../../domain/names.ts';
import type { ListPatch, ListRepository } from '../lists.ts';
import { createItemTable, itemTableName } from './item-table.ts';
import { rowToList, urlKey } from './rows.ts';
import type { CacheName, SqlSession } from './session.ts';
import { folderScopesEntry } from './folder-scopes.ts';
import { SqlBlobs } from './blobs.ts';
import { SqlVersions } from './versions.ts';
import { dropListEntries } from './recycle-bin.ts';

/** What a change to one list's record changes in the cache: its web's list entry. */
export const listEntry = (list: { webId: string }): CacheName => ['lists', list.webId];

/**
 * The cached rows of User Information Lists (items.ts `principals`): every principal
 * expansion (Author, Editor, person fields) reads them. Writes to such a list, its fields or
 * its record drop the whole scope, as metadata writes so that other instances drop it too.
 */
export const PRINCIPALS = 'principals';
export const isPrincipalList = (list: { baseTemplate: number }): boolean => list.baseTemplate === USER_INFO_LIST_TEMPLATE;
/** What a change to a list's record or fields changes besides `listEntry`: the cached principals, for a User Information List. */
export const principalsOf = (list: { baseTemplate: number }): CacheName[] => (isPrincipalList(list) ? [[PRINCIPALS]] : []);

export class SqlLists implements ListRepository {
  constructor(private readonly s: SqlSession) {}

  create(web: Web, input: NewList, now: string): Promise<List> {
    return this.s.metadataWrite([listEntry({ webId: web.id })], async (s) => {
      const serverRelativeUrl = `${urlPrefix(web.serverRelativeUrl)}/${input.relativeUrl}`;
      const inserted = await s.db.insertInto('lists').values({
        id: randomUUID(), web_id: web.id, title: input.title, title_key: input.title.toLowerCase(), description: input.description,
        base_template: input.baseTemplate, base_type: templateInfo(input.baseTemplate).baseType,
        server_relative_url: serverRelativeUrl, url_key: urlKey(serverRelativeUrl), entity_type_name: input.entityTypeName,
        hidden: input.hidden ? 1 : 0, enable_versioning: input.enableVersioning ? 1 : 0, created: now,
        last_item_modified: now, last_item_deleted: now, item_count: 0, next_item_id: 1, version: 1, table_name: '',
      }).returning('row_id').executeTakeFirstOrThrow();
      const rowId = Number(inserted.row_id);
      const table = itemTableName(rowId);
      await s.db.updateTable('lists').set({ table_name: table }).where('row_id', '=', rowId).execute();
      await createItemTable(s.db, s.flavour, table);
      return (await new SqlLists(s).byRowId(rowId))!;
    });
  }

  inWeb(webId: string): Promise<List[]> {
    return this.s.cached('lists', webId, async () => {
      const text = this.s.shape('lists-of-web', (db) => db.selectFrom('lists').selectAll().where('web_id', '=', '').where('recycle_bin_id', 'is', null).orderBy('row_id').compile());
      return (await this.s.rows(text, [webId])).map(rowToList);
    });
  }

  /** One list of a web: from the cached entry where there is one, else by an indexed query. */
  private async find(webId: string, column: 'id' | 'title_key' | 'url_key', value: string, matches: (l: List) => boolean) {
    if (this.s.inTransaction) {
      const text = this.s.shape(`list-by:${column}`, (db) => db.selectFrom('lists').selectAll().where('web_id', '=', '').where(column, '=', '').where('recycle_bin_id', 'is', null).compile());
      const [row] = await this.s.rows(text, [webId, value]);
      return row ? rowToList(row) : undefined;
    }
    return (await this.inWeb(webId)).find(matches);
  }

  byId(webId: string, id: string): Promise<List | undefined> {
    const lower = id.toLowerCase();
    return this.find(webId, 'id', lower, (l) => l.id === lower);
  }

  byTitle(webId: string, title: string): Promise<List | undefined> {
    const lower = title.toLowerCase();
    return this.find(webId, 'title_key', lower, (l) => l.title.toLowerCase() === lower);
  }

  byUrl(webId: string, serverRelativeUrl: string): Promise<List | undefined> {
    const key = urlKey(serverRelativeUrl);
    return this.find(webId, 'url_key', key, (l) => urlKey(l.serverRelativeUrl) === key);
  }

  async withCounters(lists: List[]): Promise<List[]> {
    if (!this.s.options.shared || lists.length === 0) return lists;
    const text = this.s.shape('list-counters', (db) => db.selectFrom('lists')
      .select(['row_id', 'item_count', 'last_item_modified', 'last_item_deleted']).where('web_id', '=', '').compile());
    const counters = new Map<number, Record<string, unknown>>();
    for (const webId of new Set(lists.map((l) => l.webId))) {
      for (const row of await this.s.rows(text, [webId])) counters.set(Number(row.row_id), row);
    }
    return lists.map((list) => {
      const row = counters.get(list.rowId);
      return row ? {
        ...list, itemCount: Number(row.item_count), lastItemModifiedDate: String(row.last_item_modified), lastItemDeletedDate: String(row.last_item_deleted),
      } : list;
    });
  }

  async byRowId(rowId: number): Promise<List | undefined> {
    const row = await this.s.db.selectFrom('lists').selectAll().where('row_id', '=', rowId).executeTakeFirst();
    return row ? rowToList(row) : undefined;
  }

  update(list: List, patch: ListPatch, now: string): Promise<List> {
    const set: Record<string, unknown> = { version: sql`version + 1` };
    if (patch.title !== undefined) Object.assign(set, { title: patch.title, title_key: patch.title.toLowerCase() });
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
    if (patch.enableVersioning !== undefined) set.enable_versioning = patch.enableVersioning ? 1 : 0;
    if (patch.enableModeration !== undefined) set.enable_moderation = patch.enableModeration ? 1 : 0;
    if (patch.enableMinorVersions !== undefined) set.enable_minor_versions = patch.enableMinorVersions ? 1 : 0;
    if (patch.disableCommenting !== undefined) set.disable_commenting = patch.disableCommenting ? 1 : 0;
    void now;
    return this.s.metadataWrite([listEntry(list), ...principalsOf(list)], async (s) => {
      await s.db.updateTable('lists').set(set).where('row_id', '=', list.rowId).execute();
      return (await new SqlLists(s).byRowId(list.rowId))!;
    });
  }

  async delete(list: List): Promise<void> {
    await this.s.metadataWrite([listEntry(list), ['fields', String(list.rowId)], ['roleAssignments'], folderScopesEntry(list.rowId), ...principalsOf(list)], async (s) => {
      await new SqlLists(s).lock(list);
      await releaseContent(s, list);
      // The bin's entries of its items (and a recycled list's own entry) go with it.
      await dropListEntries(s, list);
      await s.db.deleteFrom('views').where('list_row_id', '=', list.rowId).execute();
      await s.db.deleteFrom('content_types').where('scope', '=', `list:${list.rowId}`).execute();
      await s.db.deleteFrom('user_custom_actions').where('holder', '=', `list:${list.rowId}`).execute();
      // Its unique permissions and its items' go with it (the cached scopes of every site are dropped: a list knows its web, not its site).
      for (const table of ['role_assignments', 'unique_scopes'] as const) {
        await s.db.deleteFrom(table).where((eb) => eb.or([eb('scope', '=', `list:${list.rowId}`), eb('scope', 'like', `item:${list.rowId}:%`)])).execute();
      }
      await s.db.deleteFrom('sharing_links').where('scope', 'like', `item:${list.rowId}:%`).execute();
      // Its items' comments, their likes, their ratings (migration 0036) and their likes (0037).
      for (const table of ['item_comment_likes', 'item_comments', 'item_ratings', 'item_likes'] as const) await s.db.deleteFrom(table).where('list_row_id', '=', list.rowId).execute();
      await s.db.deleteFrom('fields').where('list_row_id', '=', list.rowId).execute();
      await s.db.deleteFrom('lists').where('row_id', '=', list.rowId).execute();
      await s.db.schema.dropTable(list.tableName).ifExists().execute();
    });
    this.s.schemaChanged();
  }

  /**
   * PostgreSQL locks rows and tables where SQLite has one writer: every write that touches a
   * list's item table and its row in `lists` takes the row first (item counters do, schema
   * changes do through `touch`), so two such writers never wait on each other in opposite
   * orders (a deadlock). SQLite needs no such statement.
   */
  async lock(list: List): Promise<void> {
    if (this.s.flavour !== 'postgres') return;
    await this.s.db.updateTable('lists').set({ next_item_id: sql`next_item_id` }).where('row_id', '=', list.rowId).execute();
  }

  /** A schema change of the list: its version (the list's etag) moves. */
  async touch(list: List): Promise<void> {
    await this.s.db.updateTable('lists').set({ version: sql`version + 1` }).where('row_id', '=', list.rowId).execute();
  }
}

/**
 * Everything a list's rows hold in the blob store, given up before its tables go: files'
 * content, past versions' and attachments'. Without it a deleted library's bytes would stay
 * referenced, and never be collected.
 */
async function releaseContent(s: SqlSession, list: List): Promise<void> {
  const held = new Map<string, number>();
  const hold = (id: unknown) => { if (id != null) held.set(String(id), (held.get(String(id)) ?? 0) + 1); };
  for (const row of await s.db.selectFrom(list.tableName).select('blob_id').where('blob_id', 'is not', null).execute()) hold(row.blob_id);
  for (const row of await s.db.deleteFrom('attachments').where('list_row_id', '=', list.rowId).returning('blob_id').execute()) hold(row.blob_id);
  await new SqlVersions(s).dropList(list);
  await new SqlBlobs(s, s.options.bytes).releaseAll(held);
}
