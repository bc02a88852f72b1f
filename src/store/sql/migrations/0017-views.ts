// List views: one row per view of a list, with its columns (a JSON array of internal names)
// and its CAML query as text. Every list there is gets its default view (All Items, or All
// Documents in a library), as SharePoint gives every list one.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const views = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('position', int, (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('default_view', int, (c) => c.notNull())
    .addColumn('hidden', int, (c) => c.notNull())
    .addColumn('personal', int, (c) => c.notNull())
    .addColumn('row_limit', int, (c) => c.notNull())
    .addColumn('paged', int, (c) => c.notNull())
    .addColumn('scope', int, (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .execute();
  await sql`create index views_list on views (list_row_id, position)`.execute(db);
  const lists = await db.selectFrom('lists').select(['row_id', 'base_type', 'server_relative_url']).execute();
  // As domain/views.ts makes them today, written out here so that this migration never changes.
  for (const list of lists) {
    const library = Number(list.base_type) === 1;
    await db.insertInto('views').values({
      id: globalThis.crypto.randomUUID(), list_row_id: Number(list.row_id), position: 0, title: library ? 'All Documents' : 'All Items',
      url: `${String(list.server_relative_url).replace(/\/$/, '')}/${library ? 'Forms/' : ''}AllItems.aspx`,
      default_view: 1, hidden: 0, personal: 0, row_limit: 30, paged: 1, scope: 0,
      query: library ? '<OrderBy><FieldRef Name="FileLeafRef" /></OrderBy>' : '<OrderBy><FieldRef Name="ID" /></OrderBy>',
      fields: JSON.stringify(library ? ['DocIcon', 'LinkFilename', 'Modified', 'Editor'] : ['LinkTitle']),
    }).execute();
  }
}
