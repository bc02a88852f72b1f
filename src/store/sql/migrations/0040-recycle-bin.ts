// The recycle bin as SharePoint shows it (SP.RecycleBinItem): each entry's web, type, stage,
// name, folder, size and author, kept as columns so the bin is listed without decoding every
// snapshot; a folder's contents recycled with it name the folder's entry (`parent_id`) and are
// listed and restored with it, not alone. A recycled list stays where it is, marked with its
// bin entry's id (`lists.recycle_bin_id`), hidden from every look-up until it is restored.
// Rows written before this migration are filled in from their snapshots.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const recycleBin = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  const add = (name: string, type: any, build?: (c: any) => any) =>
    db.schema.alterTable('recycle_bin').addColumn(name, type, build ?? ((c) => c)).execute();
  await add('web_id', 'text');
  await add('item_type', int, (c) => c.notNull().defaultTo(3));
  await add('item_state', int, (c) => c.notNull().defaultTo(1));
  await add('leaf_name', 'text');
  await add('dir_name', 'text');
  await add('size', int, (c) => c.notNull().defaultTo(0));
  await add('author_id', int);
  await add('parent_id', 'text');
  await db.schema.alterTable('lists').addColumn('recycle_bin_id', 'text').execute();
  await sql`create index recycle_bin_site on recycle_bin (site_id, parent_id)`.execute(db);

  // Earlier rows: item snapshots (any format: the legacy record is the item itself).
  const rows = await db.selectFrom('recycle_bin').select(['id', 'list_id', 'data']).execute();
  for (const row of rows) {
    const data = JSON.parse(String(row.data));
    const item = data.format === undefined ? data : data.item ?? {};
    const list = await db.selectFrom('lists').select(['web_id', 'server_relative_url']).where('id', '=', row.list_id).executeTakeFirst();
    const place = item.place ?? { folder: false, name: null, dir: '' };
    const listUrl = list ? String(list.server_relative_url).replace(/^\//, '') : '';
    const dir = place.dir ? `${listUrl}/${place.dir}` : listUrl;
    await db.updateTable('recycle_bin').set({
      web_id: list ? list.web_id : null,
      item_type: place.folder ? 5 : item.file ? 1 : 3,
      leaf_name: place.name ?? `${Number(item.id)}_.000`,
      dir_name: dir,
      size: Number(item.file?.size ?? 0),
      author_id: Number(item.authorId ?? 0),
    }).where('id', '=', row.id).execute();
  }
}
