// The files of a document library's `Forms` folder that are no list items: SharePoint keeps its
// forms and `client_LocationBasedDefaults.html` (the library's column defaults per folder, which
// PnPjs's column-defaults reads and writes) there. One row per file, its bytes inline (base64
// text: these files are a few KiB, and both databases hold text alike); a list's delete takes
// its rows with it.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const columnDefaults = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('list_forms_files')
    .addColumn('list_row_id', 'integer', (c) => c.notNull().references('lists.row_id').onDelete('cascade'))
    // The name lower-cased: names are unique in a folder whatever their case.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('size', int, (c) => c.notNull())
    .addColumn('unique_id', 'text', (c) => c.notNull())
    .addColumn('version', int, (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('author_id', int, (c) => c.notNull())
    .addColumn('editor_id', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('list_forms_files_pk', ['list_row_id', 'name_key'])
    .execute();
}
