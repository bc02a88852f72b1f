// List item comments (Microsoft.SharePoint.Comments.comment), their likes, and item ratings
// (Microsoft.Office.Server.ReputationModel.Reputation.SetRating). A comment is numbered per
// list (`id`), a reply names the comment it answers (`parent_id`, 0 for a comment on the item);
// likes and ratings are one row per user. All go with their item or their list. A list's
// `disable_commenting` (SP.List DisableCommenting) shuts its items to new comments.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const comments = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('item_comments')
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('id', int, (c) => c.notNull())
    .addColumn('item_id', int, (c) => c.notNull())
    .addColumn('parent_id', int, (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // JSON: the mentions as the client sent them ([{loginName, email, name}]), or null.
    .addColumn('mentions', 'text')
    .addColumn('author_id', int, (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_comments_pk', ['list_row_id', 'id'])
    .execute();
  await db.schema.createIndex('item_comments_item').on('item_comments').columns(['list_row_id', 'item_id', 'parent_id']).execute();
  await db.schema.createTable('item_comment_likes')
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('comment_id', int, (c) => c.notNull())
    .addColumn('user_id', int, (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_comment_likes_pk', ['list_row_id', 'comment_id', 'user_id'])
    .execute();
  await db.schema.createTable('item_ratings')
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('item_id', int, (c) => c.notNull())
    .addColumn('user_id', int, (c) => c.notNull())
    .addColumn('rating', int, (c) => c.notNull())
    .addColumn('rated', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_ratings_pk', ['list_row_id', 'item_id', 'user_id'])
    .execute();
  await sql`alter table lists add column disable_commenting ${int} not null default 0`.execute(db);
}
