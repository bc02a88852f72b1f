// List item attachments: files that belong to one item of a list (not a library), stored as
// SharePoint keeps them, apart from the list's folder tree (`Lists/X/Attachments/<id>/<name>`).
// One row per attachment naming its blob; one name per item whatever its case. Each item
// table gains `attachment_count`, so reading an item's Attachments flag costs no query.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const attachments = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

/** The column as this migration adds it; item-table.ts makes new tables the same way. */
export async function addAttachmentCount(db: Kysely<any>, flavour: Flavour, table: string): Promise<void> {
  await sql`alter table ${sql.id(table)} add column attachment_count ${sql.raw(columnType(flavour, 'int'))} not null default 0`.execute(db);
}

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('attachments')
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('item_id', int, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('blob_id', 'text', (c) => c.notNull())
    .addColumn('size', int, (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  const key = sql.raw(flavour === 'postgres' ? ' collate "C"' : '');
  await sql`create unique index attachments_name on attachments (list_row_id, item_id, lower(name)${key})`.execute(db);
  const tables = await db.selectFrom('lists').select('table_name').execute();
  for (const { table_name: table } of tables) await addAttachmentCount(db, flavour, String(table));
}
