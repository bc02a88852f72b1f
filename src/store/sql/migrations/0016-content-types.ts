// Content types that are not built in: a web's own (site content types) and a list's (bound
// to it by addAvailableContentType). One row each, scoped to a web or a list, with its field
// links as JSON. The built-in types (Item, Document, Folder, …) and each list's default copy
// of them are not stored: they are the same for every site.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const contentTypes = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('content_types')
    // `web:<web id>` or `list:<list row id>`.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('position', int, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('hidden', int, (c) => c.notNull())
    .addColumn('read_only', int, (c) => c.notNull())
    .addColumn('sealed', int, (c) => c.notNull())
    .addColumn('field_links', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_types_pk', ['scope', 'id'])
    .execute();
}
