// List item comments and ratings: who may remove a comment, what a comment and a rating must
// be. Reading needs only the item (the fronts check the caller may view it); writes are here.

import { fail } from '../domain/errors.ts';
import { PAGE_FIELD } from '../domain/site-pages.ts';
import type { List } from '../domain/model.ts';
import type { CommentMention, CommentRow } from '../store/comments.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

/** What a comment's body may say (`{text, mentions}`), as the REST front read it. */
export interface CommentInput {
  text: unknown;
  mentions?: unknown;
}

/** SharePoint's comment box takes this much; a longer text is refused rather than cut. */
export const MAX_COMMENT_LENGTH = 2000;

export class CommentService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** A comment on the item (`parentId` 0) or a reply to one of its comments, by the actor. */
  async add(list: List, itemId: number, parentId: number, input: CommentInput): Promise<CommentRow> {
    if (list.disableCommenting || await this.turnedOffOnItem(list, itemId)) throw fail.commentsDisabled();
    const text = input.text;
    if (typeof text !== 'string' || text.trim() === '') throw fail.badArgument('The comment text cannot be empty.');
    if (text.length > MAX_COMMENT_LENGTH) throw fail.badArgument(`The comment text cannot be longer than ${MAX_COMMENT_LENGTH} characters.`);
    const added = await this.store.comments.add(list, {
      itemId, parentId, text, mentions: mentionsOf(input.mentions), authorId: this.actor.userId, created: this.actor.now(),
    });
    if (added === 'noItem') throw parentId === 0 ? fail.itemNotFound() : fail.commentNotFound();
    return added;
  }

  /** A page whose own comments are off (SetCommentsDisabled: Site Pages' `_CommentFlags`). */
  private async turnedOffOnItem(list: List, itemId: number): Promise<boolean> {
    const fields = await this.store.fields.of(list);
    const flags = fields.find((f) => f.internalName === PAGE_FIELD.commentFlags);
    if (!flags) return false;
    return (await this.store.items.get(list, fields, itemId, [flags], []))?.values[PAGE_FIELD.commentFlags] === '1';
  }

  /**
   * Removes a comment and its replies: its author may, and so may whoever may edit the item
   * (`mayEditItem`, which the front worked out for the caller); anyone else is refused.
   */
  async delete(list: List, itemId: number, id: number, mayEditItem: boolean): Promise<void> {
    const found = await this.store.comments.get(list, itemId, id, this.actor.userId);
    if (!found) throw fail.commentNotFound();
    if (found.authorId !== this.actor.userId && !mayEditItem) throw fail.accessDenied();
    if (!(await this.store.comments.delete(list, itemId, id))) throw fail.commentNotFound();
  }

  /** Every comment of the item (DeleteAll): the front asks EditListItems of the caller. */
  async clear(list: List, itemId: number): Promise<void> {
    if (!(await this.store.items.get(list, await this.store.fields.of(list), itemId))) throw fail.itemNotFound();
    await this.store.comments.deleteAll(list, itemId);
  }

  async like(list: List, itemId: number, id: number, like: boolean): Promise<void> {
    if (!(await this.store.comments.setLike(list, itemId, id, this.actor.userId, like, this.actor.now()))) throw fail.commentNotFound();
  }

  /** The actor's like of the item itself (Reputation.SetLike): set or removed, again is no error. */
  async likeItem(list: List, itemId: number, like: boolean): Promise<void> {
    if ((await this.store.comments.setItemLike(list, itemId, this.actor.userId, like, this.actor.now())) === 'noItem') throw fail.itemNotFound();
  }

  /** The actor's rating of the item, 1 to 5 (whole stars); the item's new average. */
  async rate(list: List, itemId: number, rating: number): Promise<{ average: number; count: number }> {
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw fail.badArgument('The rating must be a whole number from 1 to 5.');
    const rated = await this.store.comments.rate(list, itemId, this.actor.userId, rating, this.actor.now());
    if (rated === 'noItem') throw fail.itemNotFound();
    return rated;
  }
}

/** The mentions a client sent (an array, or verbose's `{results: […]}`), kept as the three strings each has; none: null. */
function mentionsOf(value: unknown): CommentMention[] | null {
  const list = Array.isArray(value) ? value
    : value && typeof value === 'object' && Array.isArray((value as { results?: unknown }).results) ? (value as { results: unknown[] }).results
      : undefined;
  if (!list || list.length === 0) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return list.map((m) => {
    const o = (m && typeof m === 'object' ? m : {}) as Record<string, unknown>;
    return { loginName: text(o.loginName), email: text(o.email), name: text(o.name) };
  });
}
