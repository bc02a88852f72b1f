// Item comments, their likes, and item ratings on SQL (migration 0036), item likes (0037): read only by the comment
// and rating endpoints, so not cached. A write takes the list's counter row first (SqlLists.lock),
// as item writes do, so a comment is never added to an item being deleted, and ids are handed
// out one writer at a time.

import type { Kysely } from 'kysely';
import type { List, NewField } from '../../domain/model.ts';
import type { RatingExperience } from '../../domain/ratings.ts';
import type { CommentLike, CommentMention, CommentRepository, CommentRow, NewComment } from '../comments.ts';
import { SqlLists } from './lists.ts';
import { commentCounts, refreshRatingValues, setRatingExperience } from './ratings.ts';
import type { SqlSession } from './session.ts';

function mentionsOf(text: unknown): CommentMention[] | null {
  if (typeof text !== 'string') return null;
  try { return JSON.parse(text) as CommentMention[]; } catch { return null; }
}

const toComment = (r: Record<string, unknown>): CommentRow => ({
  id: Number(r.id), itemId: Number(r.item_id), parentId: Number(r.parent_id), text: String(r.text), mentions: mentionsOf(r.mentions),
  authorId: Number(r.author_id), created: String(r.created), likeCount: Number(r.like_count), likedByViewer: Number(r.liked) > 0,
  replyCount: Number(r.reply_count),
});

export class SqlComments implements CommentRepository {
  constructor(private readonly s: SqlSession) {}

  /** The comments with their counts: likes, the viewer's like, replies. */
  private select(list: List, itemId: number, viewerId: number) {
    return this.s.db.selectFrom('item_comments as c')
      .select(['c.id', 'c.item_id', 'c.parent_id', 'c.text', 'c.mentions', 'c.author_id', 'c.created'])
      .select((eb) => [
        eb.selectFrom('item_comment_likes as l').select(eb.fn.countAll().as('n'))
          .whereRef('l.list_row_id', '=', 'c.list_row_id').whereRef('l.comment_id', '=', 'c.id').as('like_count'),
        eb.selectFrom('item_comment_likes as v').select(eb.fn.countAll().as('n'))
          .whereRef('v.list_row_id', '=', 'c.list_row_id').whereRef('v.comment_id', '=', 'c.id').where('v.user_id', '=', viewerId).as('liked'),
        eb.selectFrom('item_comments as r').select(eb.fn.countAll().as('n'))
          .whereRef('r.list_row_id', '=', 'c.list_row_id').whereRef('r.parent_id', '=', 'c.id').as('reply_count'),
      ])
      .where('c.list_row_id', '=', list.rowId).where('c.item_id', '=', itemId);
  }

  async of(list: List, itemId: number, parentId: number, viewerId: number): Promise<CommentRow[]> {
    if (!Number.isSafeInteger(itemId)) return [];
    const rows = await this.select(list, itemId, viewerId).where('c.parent_id', '=', parentId).orderBy('c.id').execute();
    return rows.map(toComment);
  }

  async get(list: List, itemId: number, id: number, viewerId: number): Promise<CommentRow | undefined> {
    if (!Number.isSafeInteger(itemId) || !Number.isSafeInteger(id)) return undefined;
    const row = await this.select(list, itemId, viewerId).where('c.id', '=', id).executeTakeFirst();
    return row ? toComment(row) : undefined;
  }

  add(list: List, comment: NewComment): Promise<CommentRow | 'noItem'> {
    return this.s.write([], async (s) => {
      await new SqlLists(s).lock(list);
      const item = await s.db.selectFrom(list.tableName).select('id').where('id', '=', comment.itemId).executeTakeFirst();
      if (!item) return 'noItem';
      if (comment.parentId !== 0) {
        const parent = await s.db.selectFrom('item_comments').select('id').where('list_row_id', '=', list.rowId)
          .where('item_id', '=', comment.itemId).where('id', '=', comment.parentId).where('parent_id', '=', 0).executeTakeFirst();
        if (!parent) return 'noItem';
      }
      const last = await s.db.selectFrom('item_comments').select((eb) => eb.fn.max('id').as('id')).where('list_row_id', '=', list.rowId).executeTakeFirst();
      const id = Number(last?.id ?? 0) + 1;
      await s.db.insertInto('item_comments').values({
        list_row_id: list.rowId, id, item_id: comment.itemId, parent_id: comment.parentId, text: comment.text,
        mentions: comment.mentions === null ? null : JSON.stringify(comment.mentions), author_id: comment.authorId, created: comment.created,
      }).execute();
      return { ...comment, id, likeCount: 0, likedByViewer: false, replyCount: 0 };
    });
  }

  delete(list: List, itemId: number, id: number): Promise<boolean> {
    return this.s.write([], async (s) => {
      await new SqlLists(s).lock(list);
      const found = await s.db.selectFrom('item_comments').select('id').where('list_row_id', '=', list.rowId)
        .where('item_id', '=', itemId).where('id', '=', id).executeTakeFirst();
      if (!found) return false;
      const ids = [id, ...(await s.db.selectFrom('item_comments').select('id').where('list_row_id', '=', list.rowId).where('parent_id', '=', id).execute()).map((r) => Number(r.id))];
      await s.db.deleteFrom('item_comment_likes').where('list_row_id', '=', list.rowId).where('comment_id', 'in', ids).execute();
      await s.db.deleteFrom('item_comments').where('list_row_id', '=', list.rowId).where('id', 'in', ids).execute();
      return true;
    });
  }

  deleteAll(list: List, itemId: number): Promise<void> {
    return this.s.write([], async (s) => {
      await new SqlLists(s).lock(list);
      await dropComments(s.db, list.rowId, itemId);
    });
  }

  setLike(list: List, itemId: number, id: number, userId: number, like: boolean, now: string): Promise<boolean> {
    return this.s.write([], async (s) => {
      await new SqlLists(s).lock(list);
      const found = await s.db.selectFrom('item_comments').select('id').where('list_row_id', '=', list.rowId)
        .where('item_id', '=', itemId).where('id', '=', id).executeTakeFirst();
      if (!found) return false;
      if (like) {
        await s.db.insertInto('item_comment_likes').values({ list_row_id: list.rowId, comment_id: id, user_id: userId, created: now })
          .onConflict((oc) => oc.columns(['list_row_id', 'comment_id', 'user_id']).doNothing()).execute();
      } else {
        await s.db.deleteFrom('item_comment_likes').where('list_row_id', '=', list.rowId).where('comment_id', '=', id).where('user_id', '=', userId).execute();
      }
      return true;
    });
  }

  async likes(list: List, itemId: number, id: number): Promise<CommentLike[]> {
    const rows = await this.s.db.selectFrom('item_comment_likes as l')
      .innerJoin('item_comments as c', (j) => j.onRef('c.list_row_id', '=', 'l.list_row_id').onRef('c.id', '=', 'l.comment_id'))
      .select(['l.user_id', 'l.created']).where('l.list_row_id', '=', list.rowId).where('c.item_id', '=', itemId).where('l.comment_id', '=', id)
      .orderBy('l.created').orderBy('l.user_id').execute();
    return rows.map((r) => ({ userId: Number(r.user_id), created: String(r.created) }));
  }

  setItemLike(list: List, itemId: number, userId: number, like: boolean, now: string): Promise<true | 'noItem'> {
    return this.s.write([], async (s) => {
      await new SqlLists(s).lock(list);
      const item = await s.db.selectFrom(list.tableName).select('id').where('id', '=', itemId).executeTakeFirst();
      if (!item) return 'noItem';
      if (like) {
        await s.db.insertInto('item_likes').values({ list_row_id: list.rowId, item_id: itemId, user_id: userId, created: now })
          .onConflict((oc) => oc.columns(['list_row_id', 'item_id', 'user_id']).doNothing()).execute();
      } else {
        await s.db.deleteFrom('item_likes').where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).where('user_id', '=', userId).execute();
      }
      await refreshRatingValues(s, list, itemId);
      return true;
    });
  }

  async itemLikes(list: List, itemId: number): Promise<CommentLike[]> {
    if (!Number.isSafeInteger(itemId)) return [];
    const rows = await this.s.db.selectFrom('item_likes').select(['user_id', 'created'])
      .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).orderBy('created').orderBy('user_id').execute();
    return rows.map((r) => ({ userId: Number(r.user_id), created: String(r.created) }));
  }

  rate(list: List, itemId: number, userId: number, rating: number, now: string): Promise<{ average: number; count: number } | 'noItem'> {
    return this.s.write([], async (s) => {
      await new SqlLists(s).lock(list);
      const item = await s.db.selectFrom(list.tableName).select('id').where('id', '=', itemId).executeTakeFirst();
      if (!item) return 'noItem';
      await s.db.insertInto('item_ratings').values({ list_row_id: list.rowId, item_id: itemId, user_id: userId, rating, rated: now })
        .onConflict((oc) => oc.columns(['list_row_id', 'item_id', 'user_id']).doUpdateSet({ rating, rated: now })).execute();
      const all = await s.db.selectFrom('item_ratings').select('rating').where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).execute();
      const sum = all.reduce((n, r) => n + Number(r.rating), 0);
      await refreshRatingValues(s, list, itemId);
      return { average: sum / all.length, count: all.length };
    });
  }

  setRatingExperience(list: List, experience: RatingExperience, fields: readonly NewField[]): Promise<List> {
    return setRatingExperience(this.s, list, experience, fields);
  }

  commentCounts(list: List, itemIds: readonly number[]): Promise<Map<number, number>> {
    return commentCounts(this.s, list, itemIds);
  }
}

/** Every comment, like and rating of one item (its delete), in the caller's unit of work. */
export async function dropItemSocial(db: Kysely<any>, listRowId: number, itemId: number): Promise<void> {
  await dropComments(db, listRowId, itemId);
  for (const table of ['item_ratings', 'item_likes'] as const) await db.deleteFrom(table).where('list_row_id', '=', listRowId).where('item_id', '=', itemId).execute();
}

async function dropComments(db: Kysely<any>, listRowId: number, itemId: number): Promise<void> {
  await db.deleteFrom('item_comment_likes').where('list_row_id', '=', listRowId)
    .where('comment_id', 'in', db.selectFrom('item_comments').select('id').where('list_row_id', '=', listRowId).where('item_id', '=', itemId))
    .execute();
  await db.deleteFrom('item_comments').where('list_row_id', '=', listRowId).where('item_id', '=', itemId).execute();
}
