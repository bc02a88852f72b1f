// Modern pages as SharePoint Online serves them (SP.Publishing.SitePage): `_api/sitepages/pages`
// listed and created, `pages(id)` read, and its actions checkoutpage, savepage,
// savepageasdraft, publish, discardpage, promoteToNews and demoteFromNews, as PnPjs's
// clientside-pages call them. A page is a Site Pages file; its id is its item's. The rules are
// services/site-pages.ts; this file reads the wire and writes the entity (docs/compatibility.md).

import { placePath, urlInList, webRelativeUrl } from '../../../../domain/documents.ts';
import type { Field, Item, List, Web } from '../../../../domain/model.ts';
import { PAGE_FIELD } from '../../../../domain/site-pages.ts';
import { SITE_PAGES_TEMPLATE } from '../../../../domain/templates.ts';
import { storedArray } from '../../../../domain/values.ts';
import { versionLabelOf } from '../../../../domain/versions.ts';
import { resolveLogin } from '../../../../identity/logins.ts';
import { urlPrefix } from '../../../../domain/names.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { requireOnSecurable } from '../authorize-on.ts';
import { viewableChildren } from '../item-visibility.ts';
import { readEntityBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl } from '../entities.ts';
import { ok, type Outcome } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { siteUserById } from './principals.ts';
import { emptyOk, entityCollection, integerArgument, singleEntity } from './shared.ts';

type SitePagesResource = { kind: 'sitePages'; web: Web };
type PagesResource = { kind: 'sitePagesPages'; web: Web; list?: List | undefined };
type PageResource = { kind: 'sitePage'; web: Web; list: List; id: number };

const PAGE_TYPE = 'SP.Publishing.SitePage';
/** What SharePoint's VersionInfo says of a page never published: no version made yet. */
const NEVER = '0001-01-01T00:00:00Z';

/** The web's Site Pages library: the one at `SitePages`, else the first of template 119. */
export async function sitePagesLibrary(web: Web, ctx: ApiContext): Promise<List | undefined> {
  const atUrl = await ctx.store.lists.byUrl(web.id, `${urlPrefix(web.serverRelativeUrl)}/SitePages`);
  if (atUrl?.baseTemplate === SITE_PAGES_TEMPLATE) return atUrl;
  return (await ctx.store.lists.inWeb(web.id)).find((l) => l.baseTemplate === SITE_PAGES_TEMPLATE);
}

/** The page an id names: a file of the library (a folder or nothing: SharePoint's item-not-found 404). */
async function loadPage(r: PageResource, ctx: ApiContext): Promise<{ fields: Field[]; item: Item }> {
  const fields = await ctx.store.fields.of(r.list);
  const item = await ctx.store.items.get(r.list, fields, r.id);
  if (!item || item.place.folder || !item.file) throw errors.itemNotFound();
  return { fields, item };
}

const text = (item: Item, name: string): string | null => {
  const v = item.values[name];
  return v === null || v === undefined ? null : String(v);
};

async function pageEntity(r: PageResource, item: Item, ctx: ApiContext): Promise<Entity> {
  const fileUrl = urlInList(r.list.serverRelativeUrl, placePath(item.place));
  const webUrl = webRelativeUrl(r.web.serverRelativeUrl, fileUrl);
  const banner = text(item, PAGE_FIELD.banner);
  const bannerUrl = banner === null ? null : (JSON.parse(banner) as { Url: string }).Url;
  const byline: string[] = [];
  for (const id of storedArray<number>(item.values[PAGE_FIELD.authorByline] ?? null)) {
    const user = await siteUserById(ctx, id).catch(() => undefined);
    if (user) byline.push(user.userPrincipalName ?? user.email ?? user.loginName);
  }
  const published = text(item, PAGE_FIELD.firstPublished);
  const editor = published === null ? undefined : await siteUserById(ctx, item.editorId).catch(() => undefined);
  const mayEdit = await requireOnSecurable({ kind: 'item', web: r.web, list: r.list, id: item.id }, 'EditListItems', ctx).then(() => true, () => false);
  const link = `SitePages/Pages(${item.id})`;
  const props: Array<[string, Value]> = [
    ['AbsoluteUrl', absoluteUrl(ctx, fileUrl)],
    ['AuthorByline', { kind: 'collection', elementType: 'Edm.String', items: byline }],
    ['BannerImageUrl', bannerUrl],
    ['BannerThumbnailUrl', bannerUrl],
    ['ContentTypeId', item.contentTypeId],
    ['Description', text(item, PAGE_FIELD.description)],
    ['DoesUserHaveEditPermission', mayEdit],
    ['FileName', item.place.name ?? ''],
    ['FirstPublished', published ?? NEVER],
    ['Id', item.id],
    ['IsPageCheckedOutToCurrentUser', item.file?.checkedOutBy === ctx.principal.userId],
    // A site's home page is Site Pages' Home.aspx (the page every new site starts with).
    ['IsWebWelcomePage', item.place.dir === '' && (item.place.name ?? '').toLowerCase() === 'home.aspx'],
    ['Modified', item.modified],
    ['PageLayoutType', text(item, PAGE_FIELD.layoutType) ?? 'Article'],
    ['Path', { kind: 'complex', type: 'SP.ResourcePath', props: [['DecodedUrl', webUrl]] }],
    ['PromotedState', Number(item.values[PAGE_FIELD.promotedState] ?? 0)],
    ['Title', text(item, 'Title')],
    ['TopicHeader', text(item, PAGE_FIELD.topicHeader)],
    ['UniqueId', item.guid],
    ['Url', webUrl],
    ['Version', versionLabelOf(item)],
    ['VersionInfo', {
      kind: 'complex', type: 'SP.Publishing.SitePageVersionInfo',
      props: [['LastVersionCreated', published === null ? NEVER : item.modified], ['LastVersionCreatedBy', editor?.loginName ?? '']],
    }],
    ['AlternativeUrlMap', ''],
    ['CanvasContent1', text(item, PAGE_FIELD.canvas)],
    ['LayoutWebpartsContent', text(item, PAGE_FIELD.layoutParts)],
  ];
  return { type: PAGE_TYPE, id: `${ctx.apiUrl}${link}`, editLink: link, props };
}

async function pageOutcome(r: PageResource, item: Item, ctx: ApiContext, status = 200): Promise<Outcome> {
  return { ...singleEntity(await pageEntity(r, item, ctx), PAGE_TYPE, ctx), status };
}

const truth = (methodName: string): Outcome => ok({ kind: 'primitive', methodName, edmType: 'Edm.Boolean', value: true });

/** The byline's login names or UPNs → site users (each made one of the site's, as EnsureUser would). */
async function bylineIds(value: unknown, ctx: ApiContext): Promise<number[] | undefined> {
  if (value === undefined || value === null) return value === null ? [] : undefined;
  const list = Array.isArray(value) ? value
    : typeof value === 'object' && Array.isArray((value as { results?: unknown }).results) ? (value as { results: unknown[] }).results : undefined;
  if (!list) throw errors.badArgument('AuthorByline must be a list of login names.');
  const ids: number[] = [];
  for (const login of list) {
    if (typeof login !== 'string') throw errors.badArgument('AuthorByline must be a list of login names.');
    const who = await resolveLogin(ctx.store, login);
    if (!who) throw errors.ensureUserNotFound(login);
    ids.push((await ctx.services.principals.ensure(ctx.site, who, ctx.principal.userId)).id);
  }
  return ids;
}

/** savepage / savepageasdraft: the body's page properties written. */
async function save(r: PageResource, ctx: ApiContext, draft: boolean): Promise<Item> {
  const { item } = await loadPage(r, ctx);
  const body = readEntityBody(ctx, PAGE_TYPE);
  const known = new Set(['Title', 'CanvasContent1', 'LayoutWebpartsContent', 'Description', 'TopicHeader', 'BannerImageUrl', 'AuthorByline',
    'BannerThumbnailUrl', 'PageLayoutType', 'PromotedState']);
  const unknown = Object.keys(body).find((k) => !known.has(k));
  if (unknown) throw errors.unknownBodyProperty(unknown, PAGE_TYPE);
  return ctx.services.sitePages.save(r.list, item, {
    Title: body.Title, CanvasContent1: body.CanvasContent1, LayoutWebpartsContent: body.LayoutWebpartsContent, Description: body.Description,
    TopicHeader: body.TopicHeader, BannerImageUrl: body.BannerImageUrl, authorIds: await bylineIds(body.AuthorByline, ctx),
  }, draft);
}

export const sitePagesType: ResourceType<SitePagesResource> = {
  navigation: {
    pages: async (r, ctx) => ({ kind: 'sitePagesPages', web: r.web, list: await sitePagesLibrary(r.web, ctx) }),
  },
};

export const sitePagesPagesType: ResourceType<PagesResource> = {
  permissions: { get: 'ViewListItems', create: 'AddListItems' },
  async key(r, args) {
    const id = integerArgument(args);
    if (!r.list) throw errors.itemNotFound();
    return { kind: 'sitePage', web: r.web, list: r.list, id };
  },
  async get(r, ctx) {
    if (!r.list) return entityCollection([], `Collection(${PAGE_TYPE})`, ctx);
    const fields = await ctx.store.fields.of(r.list);
    const { items } = await ctx.store.documents.children(r.list, fields, '', { kind: 'file', top: 5000 });
    const entities: Entity[] = [];
    // Pages with unique permissions the caller may not view are left out, as from any listing of the library.
    for (const item of await viewableChildren(items.filter((i) => /\.aspx$/i.test(i.place.name ?? '')), r.list, ctx)) {
      entities.push(await pageEntity({ kind: 'sitePage', web: r.web, list: r.list, id: item.id }, item, ctx));
    }
    return entityCollection(entities, `Collection(${PAGE_TYPE})`, ctx);
  },
  /** `{PageLayoutType, PromotedState}`: a new page, checked out to the caller (PnPjs's CreateClientsidePage). */
  async create(r, ctx) {
    const body = ctx.body === undefined ? {} : readEntityBody(ctx, PAGE_TYPE);
    // A web without Site Pages gets it first, which is managing lists (as EnsureSitePagesLibrary).
    const list = r.list ?? await ensureSitePages(r.web, ctx);
    const item = await ctx.services.sitePages.create(list, { layout: body.PageLayoutType, promotedState: body.PromotedState });
    return pageOutcome({ kind: 'sitePage', web: r.web, list, id: item.id }, item, ctx, 201);
  },
};

async function ensureSitePages(web: Web, ctx: ApiContext): Promise<List> {
  await requireOnSecurable({ kind: 'web', web }, 'ManageLists', ctx);
  return ctx.services.lists.ensureLibrary(web, { title: 'Site Pages', relativeUrl: 'SitePages', baseTemplate: SITE_PAGES_TEMPLATE });
}

const pageAction = (run: (r: PageResource, item: Item, ctx: ApiContext) => Promise<Outcome>) => ({
  kind: 'action' as const, permission: 'EditListItems' as const, body: 'none' as const,
  async invoke(r: PageResource, _args: unknown, ctx: ApiContext): Promise<Outcome> {
    return run(r, (await loadPage(r, ctx)).item, ctx);
  },
});

export const sitePageType: ResourceType<PageResource> = {
  permissions: { get: 'ViewListItems' },
  methods: {
    checkoutpage: pageAction(async (r, item, ctx) => {
      await ctx.services.sitePages.checkOut(r.list, item);
      return pageOutcome(r, (await loadPage(r, ctx)).item, ctx);
    }),
    savepage: {
      kind: 'action', permission: 'EditListItems',
      async invoke(r, _args, ctx) {
        await save(r, ctx, false);
        return emptyOk();
      },
    },
    savepageasdraft: {
      kind: 'action', permission: 'EditListItems',
      async invoke(r, _args, ctx) {
        await save(r, ctx, true);
        return truth('SavePageAsDraft');
      },
    },
    publish: pageAction(async (r, item, ctx) => {
      await ctx.services.sitePages.publish(r.list, item);
      return truth('Publish');
    }),
    discardpage: pageAction(async (r, item, ctx) => {
      await ctx.services.sitePages.discard(r.list, item);
      return pageOutcome(r, (await loadPage(r, ctx)).item, ctx);
    }),
    promotetonews: pageAction(async (r, item, ctx) => {
      await ctx.services.sitePages.setPromoted(r.list, item, true);
      return truth('PromoteToNews');
    }),
    demotefromnews: pageAction(async (r, item, ctx) => {
      await ctx.services.sitePages.setPromoted(r.list, item, false);
      return truth('DemoteFromNews');
    }),
  },
  async get(r, ctx) {
    return pageOutcome(r, (await loadPage(r, ctx)).item, ctx);
  },
};

/**
 * `items(n)/SetCommentsDisabled(true|false)`, sent by PnPjs's page disableComments() and
 * enableComments() as an empty MERGE (a plain POST does the same): the page's own setting,
 * which its item's CommentsDisabled reads. An editor's write.
 */
export const itemCommentsSettingType: ResourceType<{ kind: 'itemCommentsSetting'; list: List; id: number; disabled: boolean }> = {
  permissions: { update: 'EditListItems', create: 'EditListItems' },
  bodies: { update: 'none', create: 'none' },
  async update(r, ctx) {
    await ctx.services.sitePages.setCommentsDisabled(r.list, r.id, r.disabled);
    return { status: 204 };
  },
  async create(r, ctx) {
    await ctx.services.sitePages.setCommentsDisabled(r.list, r.id, r.disabled);
    return emptyOk();
  },
};
