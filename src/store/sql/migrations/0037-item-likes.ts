// Likes of a list item itself (PnPjs's item.like(), Reputation.SetLike), beside 0036's comment
// likes and ratings: one row per user, gone with the item or the list.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const itemLikes = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('item_likes')
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('item_id', int, (c) => c.notNull())
    .addColumn('user_id', int, (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_likes_pk', ['list_row_id', 'item_id', 'user_id'])
    .execute();
}
