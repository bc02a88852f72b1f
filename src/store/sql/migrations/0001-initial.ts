// The fixed schema: tenant settings, site collections, webs, lists, fields and the
// recycle bin. Each list's items live in a table of their own (item-table.ts), made when
// the list is made, with one typed column per field so that filters, sorting and indexes
// are the database's own.

import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Flavour as SqlFlavour } from './frozen.ts';

/** An integer key the database assigns: SQLite's rowid alias, PostgreSQL's identity column. */
const serialKey = (flavour: SqlFlavour) => (c: ColumnDefinitionBuilder) =>
  flavour === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey();

export const initial = (flavour: SqlFlavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  await db.schema.createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_key', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('root_web_id', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('webs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('server_relative_url', 'text', (c) => c.notNull())
    .addColumn('url_key', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_item_modified', 'text', (c) => c.notNull())
    .addColumn('web_template', 'text', (c) => c.notNull())
    .addColumn('language', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.createTable('lists')
    .addColumn('row_id', 'integer', serialKey(flavour))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('web_id', 'text', (c) => c.notNull().references('webs.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('base_template', 'integer', (c) => c.notNull())
    .addColumn('base_type', 'integer', (c) => c.notNull())
    .addColumn('server_relative_url', 'text', (c) => c.notNull())
    .addColumn('url_key', 'text', (c) => c.notNull())
    .addColumn('entity_type_name', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('enable_versioning', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_item_modified', 'text', (c) => c.notNull())
    .addColumn('last_item_deleted', 'text', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull())
    .addColumn('next_item_id', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addUniqueConstraint('lists_web_title', ['web_id', 'title_key'])
    .addUniqueConstraint('lists_web_url', ['web_id', 'url_key'])
    .execute();

  await db.schema.createTable('fields')
    .addColumn('row_id', 'integer', serialKey(flavour))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('list_row_id', 'integer', (c) => c.notNull().references('lists.row_id').onDelete('cascade'))
    .addColumn('internal_name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull())
    .addColumn('indexed', 'integer', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull())
    .addColumn('built_in', 'integer', (c) => c.notNull())
    .addColumn('column_name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addUniqueConstraint('fields_list_name', ['list_row_id', 'name_key'])
    .execute();

  await db.schema.createTable('recycle_bin')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('deleted_by', 'integer', (c) => c.notNull())
    .addColumn('deleted', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();

  await sql`create index lists_web on lists (web_id)`.execute(db);
  await sql`create index webs_site on webs (site_id)`.execute(db);
}
