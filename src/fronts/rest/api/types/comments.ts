// List item comments as SharePoint Online serves them (Microsoft.SharePoint.Comments.comment):
// `items(n)/Comments` listed and added to, `Comments(id)` read, deleted, liked and unliked,
// `Comments(id)/replies` listed and added to, `Comments(id)/likedBy`, `Comments/DeleteAll`, and
// who likes the item itself (`items(n)/likedBy`).
// Anyone who may view the item reads, comments, replies and likes; a comment goes by its
// author's hand or an editor's; DeleteAll is an editor's (docs/compatibility.md).

import { fail } from '../../../../domain/errors.ts';
import type { List } from '../../../../domain/model.ts';
import type { CommentLike, CommentRow } from '../../../../store/comments.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { readEntityBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink } from '../entities.ts';
import { ok, type Outcome } from '../outcome.ts';
import type { SiteUserRecord } from '../principal-entities.ts';
import type { ResourceType } from '../resource.ts';
import { requireOnSecurable } from '../authorize-on.ts';
import { siteUserById } from './principals.ts';
import { emptyOk, entityCollection, integerArgument, singleEntity } from './shared.ts';

type CommentsResource = { kind: 'comments'; list: List; id: number };
type CommentResource = { kind: 'comment'; list: List; id: number; commentId: number };
type RepliesResource = { kind: 'commentReplies'; list: List; id: number; commentId: number };
type LikesResource = { kind: 'commentLikes'; list: List; id: number; commentId: number };
type ItemLikesResource = { kind: 'itemLikes'; list: List; id: number };

const COMMENT_TYPE = 'Microsoft.SharePoint.Comments.comment';
const COLLECTION = `Collection(${COMMENT_TYPE})`;

/** A user as comments name them (SP.Sharing.Principal); a user since removed from the site: an empty one with the id. */
async function principalValue(id: number, ctx: ApiContext, known: Map<number, SiteUserRecord | null>): Promise<Value> {
  if (!known.has(id)) known.set(id, await siteUserById(ctx, id).catch(() => null));
  const user = known.get(id) ?? null;
  return {
    kind: 'complex', type: 'SP.Sharing.Principal',
    props: [
      ['email', user?.email ?? ''], ['expiration', null], ['id', id], ['isActive', user !== null], ['isExternal', false], ['jobTitle', null],
      ['loginName', user?.loginName ?? ''], ['name', user?.title ?? ''], ['principalType', user?.principalType ?? 1], ['userId', null],
      ['userPrincipalName', user?.userPrincipalName ?? null],
    ],
  };
}

const commentLink = (list: List, itemId: number, id: number) => `${listEditLink(list)}/Items(${itemId})/Comments(${id})`;

async function commentEntity(list: List, c: CommentRow, ctx: ApiContext, known: Map<number, SiteUserRecord | null>): Promise<Entity> {
  const link = commentLink(list, c.itemId, c.id);
  const mentions: Value = c.mentions === null ? null : {
    kind: 'collection', elementType: 'Microsoft.SharePoint.Comments.Client.Identity',
    items: c.mentions.map((m) => ({ kind: 'complex', type: 'Microsoft.SharePoint.Comments.Client.Identity', props: [['email', m.email], ['loginName', m.loginName], ['name', m.name]] })),
  };
  return {
    type: COMMENT_TYPE, id: `${ctx.apiUrl}${link}`, editLink: link, deferred: ['likedBy', 'replies'],
    props: [
      ['author', await principalValue(c.authorId, ctx, known)], ['createdDate', c.created], ['id', String(c.id)],
      ['isLikedByUser', c.likedByViewer], ['isReply', c.parentId !== 0], ['itemId', c.itemId], ['likeCount', c.likeCount],
      ['listId', list.id], ['mentions', mentions], ['modifiedDate', null], ['parentId', String(c.parentId)],
      ['relativeCreatedDate', ''], ['replyCount', c.replyCount], ['text', c.text],
    ],
  };
}

async function comments(list: List, rows: CommentRow[], ctx: ApiContext): Promise<Outcome> {
  const known = new Map<number, SiteUserRecord | null>();
  const entities: Entity[] = [];
  for (const row of rows) entities.push(await commentEntity(list, row, ctx, known));
  return entityCollection(entities, COLLECTION, ctx);
}

async function requireItem(list: List, id: number, ctx: ApiContext): Promise<void> {
  if (!(await ctx.store.items.get(list, await ctx.store.fields.of(list), id))) throw fail.itemNotFound();
}

async function requireComment(r: { list: List; id: number; commentId: number }, ctx: ApiContext): Promise<CommentRow> {
  await requireItem(r.list, r.id, ctx);
  const found = await ctx.store.comments.get(r.list, r.id, r.commentId, ctx.principal.userId);
  if (!found) throw fail.commentNotFound();
  return found;
}

/** POST `{text, mentions}`: a comment (or a reply) by the caller, answered whole with 201. */
async function add(list: List, itemId: number, parentId: number, ctx: ApiContext): Promise<Outcome> {
  const body = readEntityBody(ctx, COMMENT_TYPE);
  const added = await ctx.services.comments.add(list, itemId, parentId, { text: body.text, mentions: body.mentions });
  return { ...singleEntity(await commentEntity(list, added, ctx, new Map()), COMMENT_TYPE, ctx), status: 201 };
}

export const commentsType: ResourceType<CommentsResource> = {
  permissions: { get: 'ViewListItems', create: 'ViewListItems' },
  async key(r, args) {
    return { kind: 'comment', list: r.list, id: r.id, commentId: integerArgument(args, 'id') };
  },
  methods: {
    deleteall: {
      kind: 'action', permission: 'EditListItems', body: 'none',
      async invoke(r, _args, ctx) {
        await ctx.services.comments.clear(r.list, r.id);
        return ok({ kind: 'primitive', methodName: 'DeleteAll', edmType: 'Edm.Boolean', value: true });
      },
    },
  },
  async get(r, ctx) {
    await requireItem(r.list, r.id, ctx);
    return comments(r.list, await ctx.store.comments.of(r.list, r.id, 0, ctx.principal.userId), ctx);
  },
  create: (r, ctx) => add(r.list, r.id, 0, ctx),
};

const likeAction = (like: boolean) => ({
  kind: 'action' as const, permission: 'ViewListItems' as const, body: 'none' as const,
  async invoke(r: CommentResource, _args: unknown, ctx: ApiContext): Promise<Outcome> {
    await requireItem(r.list, r.id, ctx);
    await ctx.services.comments.like(r.list, r.id, r.commentId, like);
    return emptyOk();
  },
});

export const commentType: ResourceType<CommentResource> = {
  // Deleting needs only the view; whose comment it is decides the rest (CommentService.delete).
  permissions: { get: 'ViewListItems', delete: 'ViewListItems' },
  navigation: {
    replies: async (r) => ({ kind: 'commentReplies', list: r.list, id: r.id, commentId: r.commentId }),
    likedby: async (r) => ({ kind: 'commentLikes', list: r.list, id: r.id, commentId: r.commentId }),
  },
  methods: { like: likeAction(true), unlike: likeAction(false) },
  async get(r, ctx) {
    return singleEntity(await commentEntity(r.list, await requireComment(r, ctx), ctx, new Map()), COMMENT_TYPE, ctx);
  },
  async delete(r, ctx) {
    await requireItem(r.list, r.id, ctx);
    const mayEdit = await requireOnSecurable({ kind: 'item', web: ctx.web, list: r.list, id: r.id }, 'EditListItems', ctx).then(() => true, () => false);
    await ctx.services.comments.delete(r.list, r.id, r.commentId, mayEdit);
    return emptyOk();
  },
};

export const commentRepliesType: ResourceType<RepliesResource> = {
  permissions: { get: 'ViewListItems', create: 'ViewListItems' },
  async key(r, args) {
    return { kind: 'comment', list: r.list, id: r.id, commentId: integerArgument(args, 'id') };
  },
  async get(r, ctx) {
    await requireComment(r, ctx);
    return comments(r.list, await ctx.store.comments.of(r.list, r.id, r.commentId, ctx.principal.userId), ctx);
  },
  create: (r, ctx) => add(r.list, r.id, r.commentId, ctx),
};

/** Who likes a comment or an item (Microsoft.SharePoint.Likes.userEntity), in the order they did. */
async function likers(likes: CommentLike[], ctx: ApiContext): Promise<Outcome> {
  const entities: Entity[] = [];
  for (const like of likes) {
    const user = await siteUserById(ctx, like.userId).catch(() => null);
    entities.push({
      type: 'Microsoft.SharePoint.Likes.userEntity',
      props: [['creationDate', like.created], ['email', user?.email ?? ''], ['id', like.userId], ['loginName', user?.loginName ?? ''], ['name', user?.title ?? '']],
    });
  }
  return entityCollection(entities, 'Collection(Microsoft.SharePoint.Likes.userEntity)', ctx);
}

export const commentLikesType: ResourceType<LikesResource> = {
  permissions: { get: 'ViewListItems' },
  async get(r, ctx) {
    await requireComment(r, ctx);
    return likers(await ctx.store.comments.likes(r.list, r.id, r.commentId), ctx);
  },
};

/**
 * `items(n)/likedBy`: who likes the item itself (Reputation.SetLike). PnPjs's getLikedBy() POSTs
 * it; the POST only reads, so it asks no more than the GET.
 */
export const itemLikesType: ResourceType<ItemLikesResource> = {
  permissions: { get: 'ViewListItems', create: 'ViewListItems' },
  bodies: { create: 'none' },
  async get(r, ctx) {
    await requireItem(r.list, r.id, ctx);
    return likers(await ctx.store.comments.itemLikes(r.list, r.id), ctx);
  },
  create: (r, ctx) => itemLikesType.get!(r, ctx),
};

/**
 * `items(n)/likedByInformation` (Microsoft.SharePoint.Likes.likedByInformation): whether the
 * caller likes the item, how many do, and with `$expand=likedBy` who (PnPjs's page and item
 * getLikedByInformation()).
 */
export const itemLikedByInformationType: ResourceType<{ kind: 'itemLikedByInformation'; list: List; id: number }> = {
  permissions: { get: 'ViewListItems' },
  async get(r, ctx) {
    await requireItem(r.list, r.id, ctx);
    const likes = await ctx.store.comments.itemLikes(r.list, r.id);
    const link = `${listEditLink(r.list)}/Items(${r.id})/likedByInformation`;
    const props: Array<[string, Value]> = [
      ['isLikedByUser', likes.some((l) => l.userId === ctx.principal.userId)], ['likeCount', likes.length],
    ];
    const expanded = ctx.query.expand.some((path) => path[0]?.toLowerCase() === 'likedby');
    if (expanded) {
      const listed = await likers(likes, { ...ctx, query: { ...ctx.query, select: undefined, filter: undefined, orderBy: [], skip: undefined, top: undefined } });
      const entities = listed.payload && listed.payload.kind === 'entitySet' ? listed.payload.entities : [];
      props.push(['likedBy', { kind: 'expanded', navigationLink: `${link}/likedBy`, value: entities }]);
    }
    const entity: Entity = {
      type: 'Microsoft.SharePoint.Likes.likedByInformation', id: `${ctx.apiUrl}${link}`, editLink: link, props,
      ...(expanded ? {} : { deferred: ['likedBy'] }),
    };
    return singleEntity(entity, entity.type, ctx);
  },
};
