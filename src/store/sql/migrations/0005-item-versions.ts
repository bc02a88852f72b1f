// Item version history (SP.ListItemVersion): the past versions of list items, one row per
// item and major version. The current version is the item's own row in its list's table;
// a row here is written, in the same transaction, by every update that moves an item on to
// a new version (lists with versioning on), holding the item as it was before the update.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour as SqlFlavour } from './frozen.ts';

export const itemVersions = (flavour: SqlFlavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('item_versions')
    .addColumn('list_row_id', 'integer', (c) => c.notNull().references('lists.row_id').onDelete('cascade'))
    .addColumn('item_id', int, (c) => c.notNull())
    /** The major version (1 for "1.0"); VersionId is 512 × this. */
    .addColumn('ui_version', int, (c) => c.notNull())
    /** The item as it was (the domain's Item record, values in stored form), as JSON. */
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_versions_pk', ['list_row_id', 'item_id', 'ui_version'])
    .execute();
}
