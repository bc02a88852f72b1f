// Document libraries: every item has a place in its list's folder tree, and a file has
// content. Each item table gains:
//   fs_obj_type       0 an item or a file, 1 a folder (SharePoint's FSObjType)
//   leaf_name         the name in its folder (FileLeafRef) for files and folders; null for
//                     an ordinary item, whose name is `<id>_.000`
//   dir_path          the folder it is in, relative to the list's root folder ('' = the root)
//   blob_id           a file's content (blobs.id), file_size its length
//   checkout_user_id  who holds the file checked out; checkin_comment the last check-in's
// and an index on (lower(dir_path), lower(leaf_name)): a folder's children, and one name
// per folder whatever its case (as SharePoint's file system), enforced by the database.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const documents = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

/** The columns and index as this migration adds them; item-table.ts makes new tables the same way. */
export async function addDocumentColumns(db: Kysely<any>, flavour: Flavour, table: string): Promise<void> {
  const int = columnType(flavour, 'int');
  const add = (column: string, type: string) => sql`alter table ${sql.id(table)} add column ${sql.id(column)} ${sql.raw(type)}`.execute(db);
  await add('fs_obj_type', `${int} not null default 0`);
  await add('leaf_name', 'text');
  await add('dir_path', "text not null default ''");
  await add('blob_id', 'text');
  await add('file_size', int);
  await add('checkout_user_id', int);
  await add('checkin_comment', 'text');
  // On PostgreSQL as spemu declares every case-folded key (code point order, nulls first), so that a
  // copy made by `spemu import` from SQLite is the same index.
  const key = sql.raw(flavour === 'postgres' ? ' collate "C" nulls first' : '');
  await sql`create unique index ${sql.id(`${table}_place`)} on ${sql.id(table)} (lower(dir_path)${key}, lower(leaf_name)${key})`.execute(db);
}

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const tables = await db.selectFrom('lists').select('table_name').execute();
  for (const { table_name: table } of tables) await addDocumentColumns(db, flavour, String(table));
}
