// The Store on SQL, shared by SQLite and PostgreSQL through Kysely. Everything that
// differs between the two lives in flavour.ts and connect.ts.

import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Field, FieldOptions, Item, List, Site, StoredValue, Web } from '../../domain/model.ts';
import type { FieldKind } from '../../domain/field-kinds.ts';
import type {
  FieldPatch, ItemPage, ItemQuery, ItemWrite, ListPatch, NewField, NewList, SortKey, Store,
} from '../store.ts';
import { compileFilter } from './filter-compiler.ts';
import { SqlDirectory } from './sql-directory.ts';
import { SqlProjectDataStore } from './projectdata-store.ts';
import type { ProjectDataStore } from '../projectdata.ts';
import type { Directory } from '../directory.ts';
import { binaryCollation, type SqlFlavour } from './flavour.ts';
import {
  addFieldColumn, createFieldIndex, createItemTable, dropFieldIndex, fieldColumnName, itemTableName,
  rowToItem, selectColumns, sortExpression, sortValue, valuesToColumns,
} from './item-table.ts';
import { listContentTypeId, templateInfo } from '../../domain/templates.ts';
import { MAJOR_VERSION_LIMIT } from '../../domain/versions.ts';
import { urlPrefix } from '../../domain/names.ts';

const bool = (v: unknown) => Number(v) === 1;
const urlKey = (url: string) => url.toLowerCase().replace(/\/+$/, '') || '/';

function rowToSite(r: any): Site {
  return { id: r.id, url: r.url, title: r.title, rootWebId: r.root_web_id, created: r.created };
}

function rowToWeb(r: any): Web {
  return {
    id: r.id, siteId: r.site_id, parentId: r.parent_id ?? null, serverRelativeUrl: r.server_relative_url,
    title: r.title, description: r.description, created: r.created, lastItemModified: r.last_item_modified,
    webTemplate: r.web_template, language: Number(r.language),
  };
}

function rowToList(r: any): List {
  return {
    rowId: Number(r.row_id), id: r.id, webId: r.web_id, title: r.title, description: r.description,
    baseTemplate: Number(r.base_template), baseType: Number(r.base_type), serverRelativeUrl: r.server_relative_url,
    entityTypeName: r.entity_type_name, hidden: bool(r.hidden), enableVersioning: bool(r.enable_versioning),
    created: r.created, lastItemModifiedDate: r.last_item_modified, lastItemDeletedDate: r.last_item_deleted,
    itemCount: Number(r.item_count), version: Number(r.version), tableName: r.table_name,
  };
}

function rowToField(r: any): Field {
  return {
    rowId: Number(r.row_id), id: r.id, listRowId: Number(r.list_row_id), internalName: r.internal_name,
    title: r.title, kind: r.kind as FieldKind, required: bool(r.required), indexed: bool(r.indexed),
    hidden: bool(r.hidden), readOnly: bool(r.read_only), builtIn: bool(r.built_in), column: r.column_name,
    position: Number(r.position), options: JSON.parse(r.options) as FieldOptions,
  };
}

export class SqlStore implements Store {
  readonly directory: Directory;
  readonly projectData: ProjectDataStore;

  constructor(
    private readonly db: Kysely<any>,
    private readonly flavour: SqlFlavour,
    private readonly inTransaction = false,
    private readonly onSchemaChange: () => void = () => {},
  ) {
    this.directory = new SqlDirectory(db, flavour, (fn) => this.metadataWrite((store) => fn((store as SqlStore).db)));
    this.projectData = new SqlProjectDataStore(db, flavour, {
      metadataWrite: (fn) => this.metadataWrite((store) => fn(store.db)),
      transaction: (fn) => this.transaction((store) => fn((store as SqlStore).db)),
      onSchemaChange,
      // Known tables are remembered outside transactions only (a rollback would undo one).
      tables: inTransaction ? undefined : new Map(),
    });
  }

  /** The metadata counter (0003-metadata-version.ts): changes with every metadata write. */
  async metadataVersion(): Promise<number> {
    const row = await this.db.selectFrom('metadata_version').select('version').where('id', '=', 1).executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /**
   * A metadata write: in one transaction with a bump of the metadata counter, which comes
   * first so that concurrent metadata writers queue on that one row (a single lock order).
   */
  private metadataWrite<T>(fn: (store: SqlStore) => Promise<T>): Promise<T> {
    return this.transaction(async (store) => {
      const self = store as SqlStore;
      await self.db.updateTable('metadata_version').set({ version: sql`version + 1` }).where('id', '=', 1).execute();
      return fn(self);
    });
  }

  /**
   * PostgreSQL locks rows and tables where SQLite has one writer: every write that touches a
   * list's item table and its row in `lists` takes the row first (createItem's counter update
   * does, schema changes do through touchList), so two such writers never wait on each other
   * in opposite orders (a deadlock). SQLite needs no such statement.
   */
  async lockList(list: List): Promise<void> {
    if (this.flavour !== 'postgres') return;
    await this.db.updateTable('lists').set({ next_item_id: sql`next_item_id` }).where('row_id', '=', list.rowId).execute();
  }

  async transaction<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.db.transaction().execute((trx) => fn(new SqlStore(trx, this.flavour, true, this.onSchemaChange)));
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  async getSetting(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.metadataWrite((self) => self.db.insertInto('settings').values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute());
  }

  // ---- sites and webs

  async createSite(input: { url: string; title: string; description: string; now: string }) {
    return this.metadataWrite(async (store) => {
      const self = store as SqlStore;
      const site: Site = { id: randomUUID(), url: input.url, title: input.title, rootWebId: randomUUID(), created: input.now };
      await self.db.insertInto('sites').values({
        id: site.id, url: site.url, url_key: urlKey(site.url), title: site.title, root_web_id: site.rootWebId, created: site.created,
      }).execute();
      const web: Web = {
        id: site.rootWebId, siteId: site.id, parentId: null, serverRelativeUrl: site.url, title: input.title,
        description: input.description, created: input.now, lastItemModified: input.now, webTemplate: 'STS', language: 1033,
      };
      await self.db.insertInto('webs').values({
        id: web.id, site_id: web.siteId, parent_id: null, server_relative_url: web.serverRelativeUrl, url_key: urlKey(web.serverRelativeUrl),
        title: web.title, description: web.description, created: web.created, last_item_modified: web.lastItemModified,
        web_template: web.webTemplate, language: web.language,
      }).execute();
      return { site, web };
    });
  }

  async listSites(): Promise<Site[]> {
    const rows = await this.db.selectFrom('sites').selectAll().orderBy(sql`url_key${sql.raw(binaryCollation(this.flavour))}`).execute();
    return rows.map(rowToSite);
  }

  async getSiteByUrl(url: string): Promise<Site | undefined> {
    const row = await this.db.selectFrom('sites').selectAll().where('url_key', '=', urlKey(url)).executeTakeFirst();
    return row ? rowToSite(row) : undefined;
  }

  async getWeb(id: string): Promise<Web | undefined> {
    const row = await this.db.selectFrom('webs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? rowToWeb(row) : undefined;
  }

  // ---- lists

  async createList(web: Web, input: NewList, now: string): Promise<List> {
    return this.metadataWrite(async (store) => {
      const self = store as SqlStore;
      const base = urlPrefix(web.serverRelativeUrl);
      const serverRelativeUrl = `${base}/${input.relativeUrl}`;
      const inserted = await self.db.insertInto('lists').values({
        id: randomUUID(), web_id: web.id, title: input.title, title_key: input.title.toLowerCase(), description: input.description,
        base_template: input.baseTemplate, base_type: templateInfo(input.baseTemplate).baseType,
        server_relative_url: serverRelativeUrl, url_key: urlKey(serverRelativeUrl), entity_type_name: input.entityTypeName,
        hidden: input.hidden ? 1 : 0, enable_versioning: input.enableVersioning ? 1 : 0, created: now,
        last_item_modified: now, last_item_deleted: now, item_count: 0, next_item_id: 1, version: 1, table_name: '',
      }).returning('row_id').executeTakeFirstOrThrow();
      const rowId = Number(inserted.row_id);
      const table = itemTableName(rowId);
      await self.db.updateTable('lists').set({ table_name: table }).where('row_id', '=', rowId).execute();
      await createItemTable(self.db, self.flavour, table);
      const list = await self.getListByRowId(rowId);
      return list!;
    });
  }

  async getLists(webId: string): Promise<List[]> {
    const rows = await this.db.selectFrom('lists').selectAll().where('web_id', '=', webId).orderBy('row_id').execute();
    return rows.map(rowToList);
  }

  async getListById(webId: string, id: string): Promise<List | undefined> {
    const row = await this.db.selectFrom('lists').selectAll().where('web_id', '=', webId).where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row ? rowToList(row) : undefined;
  }

  async getListByTitle(webId: string, title: string): Promise<List | undefined> {
    const row = await this.db.selectFrom('lists').selectAll().where('web_id', '=', webId).where('title_key', '=', title.toLowerCase()).executeTakeFirst();
    return row ? rowToList(row) : undefined;
  }

  async getListByUrl(webId: string, serverRelativeUrl: string): Promise<List | undefined> {
    const row = await this.db.selectFrom('lists').selectAll().where('web_id', '=', webId).where('url_key', '=', urlKey(serverRelativeUrl)).executeTakeFirst();
    return row ? rowToList(row) : undefined;
  }

  async getListByRowId(rowId: number): Promise<List | undefined> {
    const row = await this.db.selectFrom('lists').selectAll().where('row_id', '=', rowId).executeTakeFirst();
    return row ? rowToList(row) : undefined;
  }

  async updateList(list: List, patch: ListPatch, now: string): Promise<List> {
    const set: Record<string, unknown> = { version: sql`version + 1` };
    if (patch.title !== undefined) Object.assign(set, { title: patch.title, title_key: patch.title.toLowerCase() });
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
    if (patch.enableVersioning !== undefined) set.enable_versioning = patch.enableVersioning ? 1 : 0;
    void now;
    return this.metadataWrite(async (self) => {
      await self.db.updateTable('lists').set(set).where('row_id', '=', list.rowId).execute();
      return (await self.getListByRowId(list.rowId))!;
    });
  }

  async deleteList(list: List): Promise<void> {
    await this.metadataWrite(async (self) => {
      await self.lockList(list);
      await self.db.deleteFrom('item_versions').where('list_row_id', '=', list.rowId).execute();
      await self.db.deleteFrom('fields').where('list_row_id', '=', list.rowId).execute();
      await self.db.deleteFrom('lists').where('row_id', '=', list.rowId).execute();
      await self.db.schema.dropTable(list.tableName).ifExists().execute();
    });
    this.onSchemaChange();
  }

  // ---- fields

  async getFields(list: List): Promise<Field[]> {
    const rows = await this.db.selectFrom('fields').selectAll().where('list_row_id', '=', list.rowId).orderBy('position').execute();
    return rows.map(rowToField);
  }

  async addField(list: List, input: NewField): Promise<Field> {
    const field = await this.metadataWrite(async (self) => {
      await self.touchList(list);
      const max = await self.db.selectFrom('fields').select(sql<number>`coalesce(max(position), 0)`.as('p'))
        .where('list_row_id', '=', list.rowId).executeTakeFirst();
      const inserted = await self.db.insertInto('fields').values({
        id: input.builtIn?.id ?? randomUUID(), list_row_id: list.rowId, internal_name: input.internalName,
        name_key: input.internalName.toLowerCase(), title: input.title, kind: input.kind, required: input.required ? 1 : 0,
        indexed: input.indexed ? 1 : 0, hidden: input.hidden ? 1 : 0, read_only: input.readOnly ? 1 : 0,
        built_in: input.builtIn ? 1 : 0, column_name: input.builtIn?.column ?? '', position: Number(max?.p ?? 0) + 1,
        options: JSON.stringify(input.options),
      }).returning('row_id').executeTakeFirstOrThrow();
      const rowId = Number(inserted.row_id);
      if (!input.builtIn) {
        await self.db.updateTable('fields').set({ column_name: fieldColumnName(rowId) }).where('row_id', '=', rowId).execute();
      }
      const row = await self.db.selectFrom('fields').selectAll().where('row_id', '=', rowId).executeTakeFirstOrThrow();
      const created = rowToField(row);
      await addFieldColumn(self.db, self.flavour, list.tableName, created);
      if (created.indexed) await createFieldIndex(self.db, self.flavour, list.tableName, created);
      return created;
    });
    this.onSchemaChange();
    return field;
  }

  async updateField(list: List, field: Field, patch: FieldPatch): Promise<Field> {
    return this.metadataWrite(async (self) => {
      await self.touchList(list);
      const set: Record<string, unknown> = {};
      if (patch.title !== undefined) set.title = patch.title;
      if (patch.required !== undefined) set.required = patch.required ? 1 : 0;
      if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
      if (patch.options !== undefined) set.options = JSON.stringify(patch.options);
      if (patch.indexed !== undefined && patch.indexed !== field.indexed) {
        set.indexed = patch.indexed ? 1 : 0;
        if (patch.indexed) await createFieldIndex(self.db, self.flavour, list.tableName, field);
        else await dropFieldIndex(self.db, list.tableName, field);
      }
      if (Object.keys(set).length) await self.db.updateTable('fields').set(set).where('row_id', '=', field.rowId).execute();
      const row = await self.db.selectFrom('fields').selectAll().where('row_id', '=', field.rowId).executeTakeFirstOrThrow();
      return rowToField(row);
    });
  }

  async deleteField(list: List, field: Field): Promise<void> {
    await this.metadataWrite(async (self) => {
      await self.touchList(list);
      await dropFieldIndex(self.db, list.tableName, field);
      await self.db.deleteFrom('fields').where('row_id', '=', field.rowId).execute();
      await sql`alter table ${sql.table(list.tableName)} drop column ${sql.ref(field.column)}`.execute(self.db);
    });
    this.onSchemaChange();
  }

  private async touchList(list: List): Promise<void> {
    await this.db.updateTable('lists').set({ version: sql`version + 1` }).where('row_id', '=', list.rowId).execute();
  }

  // ---- items

  async queryItems(list: List, fields: Field[], query: ItemQuery): Promise<ItemPage> {
    const keys: SortKey[] = query.orderBy;
    const idKey = fields.find((f) => f.internalName === 'ID')!;
    const conditions: RawBuilder<unknown>[] = [];
    if (query.filter) {
      conditions.push(compileFilter(query.filter, {
        fields, lookups: query.lookups, flavour: this.flavour, text: query.filterText ?? '',
      }).condition);
    }
    // Walking backwards (PagedPrev) flips every direction, then the page is reversed.
    const effective = keys.map((k) => ({ ...k, descending: query.backwards ? !k.descending : k.descending }));
    const idDescending = query.backwards ?? false;
    if (query.after) conditions.push(keysetCondition(effective, query.after, idDescending, this.flavour));
    let builder = this.db.selectFrom(list.tableName).select(selectColumns(query.load ?? fields));
    if (conditions.length) builder = builder.where(sql<boolean>`${sql.join(conditions, sql` and `)}`);
    for (const key of effective) builder = builder.orderBy(sql`${sortExpression(key.field, this.flavour)} ${sql.raw(key.descending ? 'desc nulls last' : 'asc nulls first')}`);
    builder = builder.orderBy(sql`${sql.ref(idKey.column)} ${sql.raw(idDescending ? 'desc' : 'asc')}`);
    const rows = await builder.limit(query.top + 1).execute();
    const hasMore = rows.length > query.top;
    const items = rows.slice(0, query.top).map((r) => rowToItem(r, query.load ?? fields));
    if (query.backwards) items.reverse();
    return { items, hasMore };
  }

  async getItem(list: List, fields: Field[], id: number, load: Field[] = fields): Promise<Item | undefined> {
    // Ids are whole numbers an integer column holds (PostgreSQL refuses to compare with others).
    if (!Number.isSafeInteger(id)) return undefined;
    const row = await this.db.selectFrom(list.tableName).select(selectColumns(load)).where('id', '=', id).executeTakeFirst();
    return row ? rowToItem(row, load) : undefined;
  }

  async getItems(list: List, fields: Field[], ids: number[], load: Field[] = fields): Promise<Item[]> {
    ids = ids.filter(Number.isSafeInteger);
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom(list.tableName).select(selectColumns(load)).where('id', 'in', ids).execute();
    return rows.map((r) => rowToItem(r, load));
  }

  async createItem(list: List, fields: Field[], write: ItemWrite): Promise<Item> {
    return this.transaction(async (store) => {
      const self = store as SqlStore;
      // The per-list counter hands out ids under the row lock: never reused, even after deletes.
      const counter = await self.db.updateTable('lists')
        .set({ next_item_id: sql`next_item_id + 1`, item_count: sql`item_count + 1`, last_item_modified: write.now })
        .where('row_id', '=', list.rowId).returning(['next_item_id']).executeTakeFirstOrThrow();
      const id = Number(counter.next_item_id) - 1;
      const created = write.created ?? write.now;
      const row = {
        id, guid: randomUUID(), content_type_id: listContentTypeId(list.baseTemplate, list.id), created, modified: write.modified ?? created,
        author_id: write.authorId ?? write.actorId, editor_id: write.actorId, version: 1, ui_version: 1,
        ...valuesToColumns(fields, write.values),
      };
      await self.db.insertInto(list.tableName).values(row).execute();
      return (await self.getItem(list, fields, id))!;
    });
  }

  async updateItem(list: List, fields: Field[], id: number, write: ItemWrite, expectedVersion: number | null) {
    return this.transaction(async (store): Promise<Item | 'conflict' | undefined> => {
      const self = store as SqlStore;
      if (!Number.isSafeInteger(id)) return undefined;
      const set = {
        ...valuesToColumns(fields, write.values),
        modified: write.modified ?? write.now, editor_id: write.actorId,
        version: sql`version + 1`, ui_version: list.enableVersioning ? sql`ui_version + 1` : sql`ui_version`,
      };
      await self.lockList(list);
      // With versioning on, the item as it was becomes a past version, in this same transaction.
      const before = list.enableVersioning ? await self.getItem(list, fields, id) : undefined;
      let update = self.db.updateTable(list.tableName).set(set).where('id', '=', id);
      if (expectedVersion !== null) update = update.where('version', '=', expectedVersion);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        const exists = await self.db.selectFrom(list.tableName).select('id').where('id', '=', id).executeTakeFirst();
        return exists ? 'conflict' : undefined;
      }
      if (before) await self.keepVersion(list, before);
      await self.db.updateTable('lists').set({ last_item_modified: write.now }).where('row_id', '=', list.rowId).execute();
      return self.getItem(list, fields, id);
    });
  }

  /** Stores `before` as a past version and drops what falls beyond the list's version limit. */
  private async keepVersion(list: List, before: Item): Promise<void> {
    const data = JSON.stringify(before);
    await this.db.insertInto('item_versions')
      .values({ list_row_id: list.rowId, item_id: before.id, ui_version: before.uiVersion, data })
      .onConflict((oc) => oc.columns(['list_row_id', 'item_id', 'ui_version']).doUpdateSet({ data }))
      .execute();
    // The current version (before.uiVersion + 1) counts towards the limit.
    await this.db.deleteFrom('item_versions').where('list_row_id', '=', list.rowId).where('item_id', '=', before.id)
      .where('ui_version', '<=', before.uiVersion + 1 - MAJOR_VERSION_LIMIT).execute();
  }

  async getItemVersions(list: List, id: number): Promise<Item[]> {
    if (!Number.isSafeInteger(id)) return [];
    const rows = await this.db.selectFrom('item_versions').select('data')
      .where('list_row_id', '=', list.rowId).where('item_id', '=', id).orderBy('ui_version', 'desc').execute();
    return rows.map((r) => JSON.parse(String(r.data)) as Item);
  }

  async deleteItemVersion(list: List, id: number, uiVersion: number): Promise<boolean> {
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(uiVersion)) return false;
    const result = await this.db.deleteFrom('item_versions')
      .where('list_row_id', '=', list.rowId).where('item_id', '=', id).where('ui_version', '=', uiVersion).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async reserveItemId(list: List): Promise<number> {
    // The same counter createItem takes ids from, under the same row lock: a reserved id is never handed out again.
    const counter = await this.db.updateTable('lists').set({ next_item_id: sql`next_item_id + 1` })
      .where('row_id', '=', list.rowId).returning(['next_item_id']).executeTakeFirstOrThrow();
    return Number(counter.next_item_id) - 1;
  }

  async deleteItem(list: List, fields: Field[], id: number, expectedVersion: number | null, now: string) {
    return this.transaction(async (store): Promise<'deleted' | 'conflict' | undefined> => {
      const self = store as SqlStore;
      if (!Number.isSafeInteger(id)) return undefined;
      await self.lockList(list);
      let del = self.db.deleteFrom(list.tableName).where('id', '=', id);
      if (expectedVersion !== null) del = del.where('version', '=', expectedVersion);
      const result = await del.executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) {
        const exists = await self.db.selectFrom(list.tableName).select('id').where('id', '=', id).executeTakeFirst();
        return exists ? 'conflict' : undefined;
      }
      void fields;
      await self.db.deleteFrom('item_versions').where('list_row_id', '=', list.rowId).where('item_id', '=', id).execute();
      await self.db.updateTable('lists').set({ item_count: sql`item_count - 1`, last_item_deleted: now })
        .where('row_id', '=', list.rowId).execute();
      return 'deleted';
    });
  }

  async recycleItem(list: List, fields: Field[], id: number, actorId: number, now: string): Promise<string | undefined> {
    return this.transaction(async (store) => {
      const self = store as SqlStore;
      await self.lockList(list);
      const item = await self.getItem(list, fields, id);
      if (!item) return undefined;
      // The item goes to the recycle bin with its version history, as SharePoint recycles both together.
      const versions = await self.getItemVersions(list, id);
      await self.deleteItem(list, fields, id, null, now);
      const web = await self.getWeb(list.webId);
      const recycleId = randomUUID();
      await self.db.insertInto('recycle_bin').values({
        id: recycleId, site_id: web!.siteId, list_id: list.id, item_id: id, title: item.values.Title ?? null,
        deleted_by: actorId, deleted: now, data: JSON.stringify(versions.length ? { ...item, versions } : item),
      }).execute();
      return recycleId;
    });
  }
}

/**
 * Rows strictly after `after` in (keys…, id) order. NULL sorts lowest, as in SharePoint:
 * first in ascending order, last in descending order.
 */
function keysetCondition(keys: SortKey[], after: { id: number; values: StoredValue[] }, idDescending: boolean, flavour: SqlFlavour): RawBuilder<unknown> {
  const alternatives: RawBuilder<unknown>[] = [];
  const equalities: RawBuilder<unknown>[] = [];
  keys.forEach((key, i) => {
    const expr = sortExpression(key.field, flavour);
    const raw = after.values[i] ?? null;
    // The position's value goes through the same expression as the column (lower() for text,
    // see sortValue), so the database folds both sides alike.
    const value = raw === null ? null : sortValue(key.field, raw, flavour);
    const beyond = value === null
      ? (key.descending ? undefined : sql`${expr} is not null`)
      : (key.descending ? sql`(${expr} < ${value} or ${expr} is null)` : sql`${expr} > ${value}`);
    if (beyond) alternatives.push(equalities.length ? sql`(${sql.join([...equalities, beyond], sql` and `)})` : beyond);
    equalities.push(value === null ? sql`${expr} is null` : sql`${expr} = ${value}`);
  });
  const idBeyond = idDescending ? sql`id < ${after.id}` : sql`id > ${after.id}`;
  alternatives.push(equalities.length ? sql`(${sql.join([...equalities, idBeyond], sql` and `)})` : idBeyond);
  return sql`(${sql.join(alternatives, sql` or `)})`;
}

