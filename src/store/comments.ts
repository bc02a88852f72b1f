// List item comments, their likes and replies, item likes and item ratings (the social data SharePoint
// Online keeps beside an item, not in its fields).

import type { List, NewField } from '../domain/model.ts';
import type { RatingExperience } from '../domain/ratings.ts';

export interface CommentMention {
  loginName: string;
  email: string;
  name: string;
}

export interface CommentRow {
  /** Numbered per list, from 1. */
  id: number;
  itemId: number;
  /** The comment this one answers; 0 for a comment on the item. */
  parentId: number;
  text: string;
  mentions: CommentMention[] | null;
  /** The author's id in the site's User Information List. */
  authorId: number;
  created: string;
  /** How many users like it, and whether `viewerId` (as asked) is one. */
  likeCount: number;
  likedByViewer: boolean;
  /** How many replies it has (a reply: 0). */
  replyCount: number;
}

export interface CommentLike {
  userId: number;
  created: string;
}

/** A comment to store: what a stored one has but its number and what others did to it since. */
export type NewComment = Pick<CommentRow, 'itemId' | 'parentId' | 'text' | 'mentions' | 'authorId' | 'created'>;

export interface CommentRepository {
  /** The item's comments (parentId 0) or a comment's replies, oldest first; likes told for `viewerId`. */
  of(list: List, itemId: number, parentId: number, viewerId: number): Promise<CommentRow[]>;
  /** One comment of the item (a reply too), or undefined. */
  get(list: List, itemId: number, id: number, viewerId: number): Promise<CommentRow | undefined>;
  /** Adds it under the next id of the list; 'noItem' when the item (or the parent comment) is gone. */
  add(list: List, comment: NewComment): Promise<CommentRow | 'noItem'>;
  /** Removes the comment, its replies and their likes; whether it was there. */
  delete(list: List, itemId: number, id: number): Promise<boolean>;
  /** Removes every comment of the item (replies and likes too). */
  deleteAll(list: List, itemId: number): Promise<void>;
  /** Sets (true) or removes (false) `userId`'s like; false when there is no such comment. */
  setLike(list: List, itemId: number, id: number, userId: number, like: boolean, now: string): Promise<boolean>;
  /** Who likes the comment, in the order they did. */
  likes(list: List, itemId: number, id: number): Promise<CommentLike[]>;
  /** Sets (true) or removes (false) `userId`'s like of the item itself; 'noItem' when it is gone. */
  setItemLike(list: List, itemId: number, userId: number, like: boolean, now: string): Promise<true | 'noItem'>;
  /** Who likes the item itself, in the order they did. */
  itemLikes(list: List, itemId: number): Promise<CommentLike[]>;
  /** Sets `userId`'s rating of the item and answers the item's average rating and count; 'noItem' when it is gone. */
  rate(list: List, itemId: number, userId: number, rating: number, now: string): Promise<{ average: number; count: number } | 'noItem'>;
  /**
   * Sets the list's rating settings and, turning them on, adds the rating `fields` it lacks and
   * fills them for the items already rated or liked, in one unit of work; the list as it now is.
   * Ratings and likes keep the item's rating fields (when it has them) up to date as they change.
   */
  setRatingExperience(list: List, experience: RatingExperience, fields: readonly NewField[]): Promise<List>;
  /** How many comments (replies included) each item has; items with none are absent. */
  commentCounts(list: List, itemIds: readonly number[]): Promise<Map<number, number>>;
}
