// The change log (issue #10): one row per change to a site collection's content and structure,
// numbered per site collection in commit order (`change_numbers` holds the last number given,
// its row locked by the writing transaction until it commits, so a reader never sees number
// n+1 before n). Reading changes walks an index from a token's number onward: (site, number)
// for a site collection, (web, number) for a web, (list, number) for a list; purging by age
// walks `time`.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const changeLog = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('change_numbers')
    .addColumn('site_id', 'text', (c) => c.primaryKey())
    .addColumn('last_number', int, (c) => c.notNull())
    .execute();
  await db.schema.createTable('change_log')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('number', int, (c) => c.notNull())
    // ISO 8601 UTC with milliseconds: sorts as text.
    .addColumn('time', 'text', (c) => c.notNull())
    // item, list, field, view, web, site, contentType, group, user, …
    .addColumn('object_kind', 'text', (c) => c.notNull())
    // SP.ChangeType's number (1 Add, 2 Update, 3 DeleteObject, …).
    .addColumn('change_type', int, (c) => c.notNull())
    // '' where the change is to the site collection itself (a group, a permission level).
    .addColumn('web_id', 'text', (c) => c.notNull())
    // '' where the change is to no list.
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('item_id', int)
    .addColumn('unique_id', 'text')
    // What the change's entity shows besides its ids (title, URL, editor, …), as JSON.
    .addColumn('details', 'text')
    .addPrimaryKeyConstraint('change_log_pk', ['site_id', 'number'])
    .execute();
  await db.schema.createIndex('change_log_web').on('change_log').columns(['web_id', 'number']).execute();
  await db.schema.createIndex('change_log_list').on('change_log').columns(['list_id', 'number']).execute();
  await db.schema.createIndex('change_log_time').on('change_log').columns(['site_id', 'time']).execute();
}
