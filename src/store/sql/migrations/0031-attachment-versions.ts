// Attachments get what SharePoint's files have, so their `$value` can carry an ETag and a save
// can be refused when it is stale (412): a GUID of their own (the file's UniqueId in
// SharePoint, where an attachment is a file in the list's hidden Attachments folder) and a
// version that each overwrite bumps. Attachments there already start at version 1, each with a
// GUID of its own.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const attachmentVersions = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await sql`alter table attachments add column unique_id text`.execute(db);
  await sql`alter table attachments add column version ${int} not null default 1`.execute(db);
  const rows = await db.selectFrom('attachments').select(['list_row_id', 'item_id', 'name']).execute();
  for (const row of rows) {
    await db.updateTable('attachments').set({ unique_id: globalThis.crypto.randomUUID() })
      .where('list_row_id', '=', row.list_row_id).where('item_id', '=', row.item_id).where('name', '=', row.name).execute();
  }
}
