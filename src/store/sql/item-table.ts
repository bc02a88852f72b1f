// Each list's items live in a table `items_<list row id>`: fixed columns for what every
// item has, and a typed column `c<field row id>` per field. Building the table this way
// lets the database filter, sort and index items itself.

import { sql, type Kysely, type RawBuilder } from 'kysely';
import { FIELD_KINDS, valueKind } from '../../domain/field-kinds.ts';
import type { Field, Item, StoredValue } from '../../domain/model.ts';
import type { ItemPart } from '../items.ts';
import { binaryCollation, columnType, nullsFirst, type SqlFlavour } from './flavour.ts';
import { addDocumentColumns } from './migrations/0009-documents.ts';
import { addGuidIndex } from './migrations/0010-item-guid-index.ts';
import { addAttachmentCount } from './migrations/0012-attachments.ts';
import { addMinorVersion } from './migrations/0014-minor-versions.ts';

export const itemTableName = (listRowId: number) => `items_${listRowId}`;
export const fieldColumnName = (fieldRowId: number) => `c${fieldRowId}`;

/** Built-in fields that are columns of every item table (internal name → column). */
export const SYSTEM_COLUMNS: Record<string, string> = {
  ID: 'id',
  GUID: 'guid',
  ContentTypeId: 'content_type_id',
  Created: 'created',
  Modified: 'modified',
  Author: 'author_id',
  Editor: 'editor_id',
  owshiddenversion: 'version',
  _UIVersionString: 'ui_version',
  Title: 'title',
};

const FIXED_SELECT = ['id', 'guid', 'content_type_id', 'created', 'modified', 'author_id', 'editor_id', 'version', 'ui_version', 'minor_version',
  'fs_obj_type', 'leaf_name', 'dir_path', 'blob_id', 'file_size', 'checkout_user_id', 'checkin_comment', 'attachment_count'];

export async function createItemTable(db: Kysely<any>, flavour: SqlFlavour, table: string): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable(table)
    .addColumn('id', int, (c) => c.primaryKey())
    .addColumn('guid', 'text', (c) => c.notNull())
    .addColumn('content_type_id', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('author_id', int, (c) => c.notNull())
    .addColumn('editor_id', int, (c) => c.notNull())
    .addColumn('version', int, (c) => c.notNull())
    .addColumn('ui_version', int, (c) => c.notNull())
    .addColumn('title', 'text')
    .execute();
  await addDocumentColumns(db, flavour, table);
  await addGuidIndex(db, flavour, table);
  await addAttachmentCount(db, flavour, table);
  await addMinorVersion(db, flavour, table);
  await createModifiedIndex(db, flavour, table);
}

/** Every list is paged and sorted by Modified/Created often enough to earn this. */
export async function createModifiedIndex(db: Kysely<any>, flavour: SqlFlavour, table: string): Promise<void> {
  // `nulls first` (PostgreSQL only): Modified is never empty, but the sort says `asc nulls first`, which only an index declared so serves.
  await sql`create index ${sql.id(`${table}_modified`)} on ${sql.id(table)} (modified${sql.raw(nullsFirst(flavour))}, id)`.execute(db);
}

export async function addFieldColumn(db: Kysely<any>, flavour: SqlFlavour, table: string, field: Field): Promise<void> {
  if (field.builtIn) return;
  const type = columnType(flavour, FIELD_KINDS[valueKind(field)].storage);
  await sql`alter table ${sql.id(table)} add column ${sql.id(field.column)} ${sql.raw(type)}`.execute(db);
}

export const indexName = (table: string, field: Pick<Field, 'column'>) => `${table}_${field.column}_ix`;

/**
 * Text is compared case-insensitively (as SharePoint's collation does), so its index is on
 * lower(). Dates are text in one fixed form (`…T…Z`): they sort and are filtered on the
 * bare column, as the filter compiler compares them, so their indexes (and Modified's) serve.
 */
export const foldsCase = (field: Pick<Field, 'kind'> & { options?: Field['options'] }) => FIELD_KINDS[valueKind(field)].storage === 'text' && valueKind(field) !== 'DateTime';

export function sortExpression(field: Pick<Field, 'column' | 'kind'> & { options?: Field['options'] }, flavour: SqlFlavour): RawBuilder<unknown> {
  const column = sql.ref(field.column);
  return foldsCase(field)
    ? sql`lower(${column})${sql.raw(binaryCollation(flavour))}`
    : sql`${column}`;
}

/** A stored value to compare with `sortExpression(field)`: text goes through the same lower(). */
export function sortValue(field: Field, value: string | number, flavour: SqlFlavour): RawBuilder<unknown> {
  return foldsCase(field)
    ? sql`lower(${value})${sql.raw(binaryCollation(flavour))}`
    : sql`${value}`;
}

/** (value, id): the order queryItems sorts in, ties broken by id, so `$orderby` and paging read it in order (see nullsFirst). */
export async function createFieldIndex(db: Kysely<any>, flavour: SqlFlavour, table: string, field: Pick<Field, 'column' | 'kind'> & { options?: Field['options'] }): Promise<void> {
  await sql`create index if not exists ${sql.id(indexName(table, field))} on ${sql.id(table)} (${sortExpression(field, flavour)}${sql.raw(nullsFirst(flavour))}, id)`.execute(db);
}

export async function dropFieldIndex(db: Kysely<any>, table: string, field: Pick<Field, 'column'>): Promise<void> {
  await sql`drop index if exists ${sql.id(indexName(table, field))}`.execute(db);
}

/** The columns each part of an item is read from (ItemRepository.get's `parts`); the rest are always read. */
const PART_COLUMNS: Record<ItemPart, readonly string[]> = {
  contentTypeId: ['content_type_id'], created: ['created'], modified: ['modified'], uiVersion: ['ui_version', 'minor_version'],
  place: ['fs_obj_type', 'leaf_name', 'dir_path'], file: ['blob_id', 'file_size', 'checkout_user_id', 'checkin_comment'], attachments: ['attachment_count'],
};
const ALWAYS_SELECT = ['id', 'guid', 'author_id', 'editor_id', 'version'];

/** The columns to select for a list with these fields (and only these parts of the item, when given). */
export function selectColumns(fields: Field[], parts?: readonly ItemPart[]): string[] {
  const columns = parts ? [...ALWAYS_SELECT, ...parts.flatMap((p) => PART_COLUMNS[p])] : [...FIXED_SELECT];
  for (const f of fields) {
    if (f.column === 'title' || !f.builtIn) columns.push(f.column);
  }
  return columns;
}

/**
 * `selectColumns(fields, parts)` as quoted SQL (`"id", "guid", …`), for queries written as one
 * template; kept per fields array and parts array (both are a plan's, made once per query shape).
 */
export function columnList(fields: Field[], parts?: readonly ItemPart[]): string {
  let byParts = columnLists.get(fields);
  if (!byParts) columnLists.set(fields, (byParts = new Map()));
  const key = parts ?? WHOLE_ROW;
  let list = byParts.get(key);
  if (list === undefined) {
    list = selectColumns(fields, parts).map((c) => `"${c}"`).join(', ');
    // Bounded: a fields array meets a few parts arrays (one per projection), unless plans keep being remade.
    if (byParts.size >= 64) byParts.clear();
    byParts.set(key, list);
  }
  return list;
}
const WHOLE_ROW: readonly ItemPart[] = [];
const columnLists = new WeakMap<Field[], Map<readonly ItemPart[], string>>();

export function rowToItem(row: Record<string, unknown>, fields: Field[]): Item {
  const values: Record<string, StoredValue> = {};
  for (const f of fields) {
    if (f.column === 'title' || !f.builtIn) values[f.internalName] = normalise(row[f.column]);
  }
  return {
    id: Number(row.id),
    guid: String(row.guid),
    contentTypeId: String(row.content_type_id ?? ''),
    created: String(row.created ?? ''),
    modified: String(row.modified ?? ''),
    authorId: Number(row.author_id),
    editorId: Number(row.editor_id),
    version: Number(row.version),
    uiVersion: Number(row.ui_version ?? 1),
    minorVersion: Number(row.minor_version ?? 0),
    values,
    ...(Number(row.attachment_count ?? 0) > 0 ? { attachments: Number(row.attachment_count) } : {}),
    place: { folder: Number(row.fs_obj_type ?? 0) === 1, name: row.leaf_name == null ? null : String(row.leaf_name), dir: String(row.dir_path ?? '') },
    ...(row.blob_id == null ? {} : {
      file: {
        blobId: String(row.blob_id), size: Number(row.file_size ?? 0),
        checkedOutBy: row.checkout_user_id == null ? null : Number(row.checkout_user_id),
        checkInComment: row.checkin_comment == null ? '' : String(row.checkin_comment),
      },
    }),
  };
}

/** PostgreSQL returns bigint as string; the domain wants numbers. */
function normalise(value: unknown): StoredValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  return value as StoredValue;
}

/** Column → value for an insert or update of these stored values. */
export function valuesToColumns(fields: Field[], values: Record<string, StoredValue>): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = {};
  for (const f of fields) {
    // A dependent lookup is its primary's column read another way: never written through it.
    if (f.options.primaryFieldId !== undefined) continue;
    if (f.internalName in values && (f.column === 'title' || !f.builtIn)) out[f.column] = values[f.internalName] ?? null;
  }
  return out;
}
