// The recycle bin as SharePoint serves it (SP.RecycleBinItem): `web/RecycleBin` (the web's first
// stage), `site/RecycleBin` (both stages of every web: site collection administrators only),
// `RecycleBin('id')` and its `Restore`, `DeleteObject` (or DELETE), `MoveToSecondStage`, `Author`
// and `DeletedBy`; the collection's `RestoreAll`, `DeleteAll`, `MoveAllToSecondStage`,
// `DeleteAllSecondStageItems` and the by-ids forms CLI for Microsoft 365 sends; and
// `GetRecycleBinItems(…)` / `GetRecycleBinItemsByQueryInfo(…)` as a view of the bin that
// answers the same methods. Who sees what (docs/compatibility.md "Recycle bin"): in the web's
// bin, a caller's own deletions, everyone's for one who may manage the web; second-stage entries
// and the site's bin, site collection administrators (the site's owners) only. Restoring needs
// Edit Items on the entry's list (Manage Lists for a list).

import { fail } from '../../../../domain/errors.ts';
import type { Web } from '../../../../domain/model.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import type { RecycleBinEntry } from '../../../../store/recycle-bin.ts';
import { RecycleBinItemType } from '../../../../store/recycle-bin.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import { arrayValue, readMethodBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { resourcePathValue } from '../entities.ts';
import type { SiteUserRecord } from '../principal-entities.ts';
import type { MethodDef, ResourceType } from '../resource.ts';
import { requireOnSecurable } from '../authorize-on.ts';
import { voidResult } from '../outcome.ts';
import { voidAction } from './documents-shared.ts';
import { siteUserById } from './principals.ts';
import { argument } from './shared.ts';
import { projectedCollection, projectedEntity, type Navigation } from '../expand.ts';
import { userEntity } from '../principal-entities.ts';

/** A GetRecycleBinItems view: its arguments as sent (rowLimit, isAscending, orderBy, itemState, pagingInfo, ShowOnlyMyItems). */
export interface BinView {
  rowLimit?: number | undefined;
  ascending: boolean;
  orderBy: number;
  state?: number | undefined;
  pagingInfo?: string | undefined;
  onlyMine: boolean;
}

type BinScope = 'web' | 'site';
type BinResource = { kind: 'recycleBin'; scope: BinScope; web: Web; view?: BinView | undefined };
type BinItemResource = { kind: 'recycleBinItem'; scope: BinScope; web: Web; entry: RecycleBinEntry };

const ITEM_TYPE = 'SP.RecycleBinItem';
const GUID = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;
/** SP.RecycleBinOrderBy: DefaultOrderBy 0, Title 1, DeletedBy 2, DeletedDate 3, Size 4. */
const ORDER_KEYS: Record<number, (e: RecycleBinEntry) => string | number> = {
  0: (e) => e.deleted, 1: (e) => e.title.toLowerCase(), 2: (e) => e.deletedBy, 3: (e) => e.deleted, 4: (e) => e.size,
};
const localFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A site collection administrator: in spemu, an owner of the site collection (docs/compatibility.md). */
const isSiteAdmin = (ctx: ApiContext): boolean => ctx.principal.role === 'owner';

async function mayManageWeb(web: Web, ctx: ApiContext): Promise<boolean> {
  return requireOnSecurable({ kind: 'web', web }, 'ManageWeb', ctx).then(() => true, () => false);
}

/** The entries this bin shows the caller, in SharePoint's order (newest first) unless a view says otherwise. */
async function visibleEntries(r: BinResource, ctx: ApiContext): Promise<RecycleBinEntry[]> {
  const all = await ctx.store.recycleBin.of(ctx.site.id);
  let entries: RecycleBinEntry[];
  if (r.scope === 'site') {
    if (!isSiteAdmin(ctx)) throw fail.accessDenied();
    entries = all;
  } else {
    const manager = await mayManageWeb(r.web, ctx);
    // The web's bin is its first stage; a view may ask for the second too (administrators only).
    const state = r.view?.state ?? 1;
    if (state === 2 && !isSiteAdmin(ctx)) throw fail.accessDenied();
    const states = state === 0 ? (isSiteAdmin(ctx) ? [1, 2] : [1]) : [state];
    entries = all.filter((e) => e.webId === r.web.id && states.includes(e.itemState) && (manager || e.deletedBy === ctx.principal.userId));
  }
  if (r.view) entries = viewed(entries, r.view, ctx);
  return entries;
}

function viewed(entries: RecycleBinEntry[], view: BinView, ctx: ApiContext): RecycleBinEntry[] {
  if (view.state !== undefined && view.state !== 0) entries = entries.filter((e) => e.itemState === view.state);
  if (view.onlyMine) entries = entries.filter((e) => e.deletedBy === ctx.principal.userId);
  const key = ORDER_KEYS[view.orderBy] ?? ORDER_KEYS[0]!;
  const sorted = [...entries].sort((a, b) => {
    const x = key(a), y = key(b);
    const c = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return view.ascending ? c : -c;
  });
  // pagingInfo: `id=<the last entry of the page before>` (SharePoint's adds the sort value, which the id settles here).
  const after = view.pagingInfo ? /(?:^|&)id=([^&]+)/i.exec(view.pagingInfo)?.[1] : undefined;
  let start = 0;
  if (after) {
    const at = sorted.findIndex((e) => e.id === decodeURIComponent(after).toLowerCase());
    start = at < 0 ? sorted.length : at + 1;
  }
  const page = sorted.slice(start);
  return view.rowLimit !== undefined ? page.slice(0, view.rowLimit) : page;
}

async function findEntry(r: BinResource, id: string, ctx: ApiContext): Promise<RecycleBinEntry> {
  const match = GUID.exec(id.trim());
  if (!match) throw errors.invalidGuid();
  const entry = (await visibleEntries(r, ctx)).find((e) => e.id === match[1]!.toLowerCase());
  if (!entry) throw fail.recycleBinItemNotFound();
  return entry;
}

function keyText(args: Argument[]): string {
  const literal = argumentLiteral(argument(args, 'id'));
  if (literal?.type === 'string' || literal?.type === 'guid') return literal.value;
  throw errors.invalidGuid();
}

async function user(id: number, ctx: ApiContext, known: Map<number, SiteUserRecord | null>): Promise<SiteUserRecord | null> {
  if (!known.has(id)) known.set(id, await siteUserById(ctx, id).catch(() => null));
  return known.get(id) ?? null;
}

async function entryEntity(r: { scope: BinScope }, e: RecycleBinEntry, ctx: ApiContext, known: Map<number, SiteUserRecord | null>): Promise<Entity> {
  const author = await user(e.authorId, ctx, known);
  const deletedBy = await user(e.deletedBy, ctx, known);
  const editLink = `${r.scope === 'site' ? 'Site' : 'Web'}/RecycleBin('${e.id}')`;
  return {
    type: ITEM_TYPE, id: `${ctx.apiUrl}${editLink}`, editLink, deferred: ['Author', 'DeletedBy'],
    props: [
      ['AuthorEmail', author?.email ?? ''], ['AuthorName', author?.title ?? ''],
      ['DeletedByEmail', deletedBy?.email ?? ''], ['DeletedByName', deletedBy?.title ?? ''],
      ['DeletedDate', e.deleted], ['DeletedDateLocalFormatted', localFormat.format(new Date(e.deleted)).replace(',', '')],
      ['DirName', e.dirName], ['DirNamePath', resourcePathValue(e.dirName)], ['Id', e.id], ['ItemState', e.itemState],
      ['ItemType', e.itemType], ['LeafName', e.leafName], ['LeafNamePath', resourcePathValue(e.leafName)], ['Size', e.size], ['Title', e.title],
    ],
  };
}

/** Restoring needs Edit Items on the entry's list (Manage Lists on the web for a list); second-stage entries a site collection administrator. */
async function requireRestore(e: RecycleBinEntry, ctx: ApiContext): Promise<void> {
  if (e.itemState === 2 && !isSiteAdmin(ctx)) throw fail.accessDenied();
  const web = e.webId === ctx.web.id ? ctx.web : await ctx.store.sites.web(e.webId);
  if (!web) throw fail.recycleBinItemNotFound();
  if (e.itemType === RecycleBinItemType.List) return requireOnSecurable({ kind: 'web', web }, 'ManageLists', ctx);
  const list = await ctx.store.lists.byId(web.id, e.listId);
  // Its list gone (recycled or deleted): the restore says so (listNotFoundById) once it runs.
  if (list) await requireOnSecurable({ kind: 'list', web, list }, 'EditListItems', ctx);
}

/** Deleting or moving: one's own deletion, or any for one who may manage the web; the second stage an administrator's. */
async function requireRemove(e: RecycleBinEntry, ctx: ApiContext): Promise<void> {
  if (isSiteAdmin(ctx)) return;
  if (e.itemState === 2) throw fail.accessDenied();
  if (e.deletedBy === ctx.principal.userId) return;
  const web = e.webId === ctx.web.id ? ctx.web : await ctx.store.sites.web(e.webId);
  if (!web || !(await mayManageWeb(web, ctx))) throw fail.accessDenied();
}

/** `{"ids":[…]}` (CLI for Microsoft 365's RestoreByIds, DeleteByIds, MoveToSecondStageByIds). */
function bodyIds(ctx: ApiContext): string[] {
  const ids = arrayValue(readMethodBody(ctx).ids);
  if (!ids || ids.some((id) => typeof id !== 'string')) throw errors.badArgument('ids');
  return ids as string[];
}

async function entriesByIds(r: BinResource, ids: string[], ctx: ApiContext): Promise<RecycleBinEntry[]> {
  const out: RecycleBinEntry[] = [];
  for (const id of ids) out.push(await findEntry(r, id, ctx));
  return out;
}

async function restoreAll(entries: RecycleBinEntry[], ctx: ApiContext): Promise<void> {
  for (const e of entries) await requireRestore(e, ctx);
  await ctx.services.recycleBin.restore(entries);
}

async function removeAll(entries: RecycleBinEntry[], ctx: ApiContext): Promise<void> {
  for (const e of entries) await requireRemove(e, ctx);
  await ctx.services.recycleBin.purge(ctx.site.id, entries);
}

async function moveAll(entries: RecycleBinEntry[], ctx: ApiContext): Promise<void> {
  for (const e of entries) await requireRemove(e, ctx);
  await ctx.services.recycleBin.moveToSecondStage(ctx.site.id, entries);
}

const collectionMethods: Record<string, MethodDef<BinResource>> = {
  getbyid: { kind: 'function', invoke: async (r, args, ctx) => ({ kind: 'recycleBinItem', scope: r.scope, web: r.web, entry: await findEntry(r, keyText(args), ctx) }) },
  restoreall: voidAction('RestoreAll', 'EditListItems', async (r, _args, ctx) => restoreAll(await visibleEntries(r, ctx), ctx)),
  deleteall: voidAction('DeleteAll', 'DeleteListItems', async (r, _args, ctx) => removeAll(await visibleEntries(r, ctx), ctx)),
  // CLI for Microsoft 365 sends `{"ids":[…]}` here to move only those (docs/compatibility.md).
  movealltosecondstage: voidAction('MoveAllToSecondStage', 'DeleteListItems', async (r, _args, ctx) => {
    const ids = ctx.body === undefined ? undefined : bodyIds(ctx);
    const entries = ids ? await entriesByIds(r, ids, ctx) : (await visibleEntries(r, ctx)).filter((e) => e.itemState === 1);
    await moveAll(entries, ctx);
  }, 'json'),
  deleteallsecondstageitems: voidAction('DeleteAllSecondStageItems', 'DeleteListItems', async (r, _args, ctx) => {
    if (!isSiteAdmin(ctx)) throw fail.accessDenied();
    const all = await ctx.store.recycleBin.of(ctx.site.id);
    await removeAll(all.filter((e) => e.itemState === 2 && (r.scope === 'site' || e.webId === r.web.id)), ctx);
  }),
  restorebyids: voidAction('RestoreByIds', 'EditListItems', async (r, _args, ctx) => restoreAll(await entriesByIds(r, bodyIds(ctx), ctx), ctx), 'json'),
  deletebyids: voidAction('DeleteByIds', 'DeleteListItems', async (r, _args, ctx) => removeAll(await entriesByIds(r, bodyIds(ctx), ctx), ctx), 'json'),
  movetosecondstagebyids: voidAction('MoveToSecondStageByIds', 'DeleteListItems', async (r, _args, ctx) => moveAll(await entriesByIds(r, bodyIds(ctx), ctx), ctx), 'json'),
};

export const recycleBinType: ResourceType<BinResource> = {
  async key(r, args, ctx) {
    return { kind: 'recycleBinItem', scope: r.scope, web: r.web, entry: await findEntry(r, keyText(args), ctx) };
  },
  methods: collectionMethods,
  async get(r, ctx) {
    const known = new Map<number, SiteUserRecord | null>();
    const entries = new Map<Entity, RecycleBinEntry>();
    for (const e of await visibleEntries(r, ctx)) entries.set(await entryEntity(r, e, ctx, known), e);
    return projectedCollection([...entries.keys()], (entity) => people(entries.get(entity)!, ctx), ITEM_TYPE, ctx);
  },
};

/** `$expand=Author,DeletedBy`: the site users (SP.User), null for one no longer on the site. */
function people(e: RecycleBinEntry, ctx: ApiContext): Record<string, Navigation> {
  const link = (name: string) => `RecycleBin('${e.id}')/${name}`;
  const load = (id: number) => async () => { const user = await siteUserById(ctx, id).catch(() => null); return user ? userEntity(user, ctx) : null; };
  return { Author: { link: link('Author'), load: load(e.authorId) }, DeletedBy: { link: link('DeletedBy'), load: load(e.deletedBy) } };
}

export const recycleBinItemType: ResourceType<BinItemResource> = {
  permissions: { delete: 'DeleteListItems' },
  navigation: {
    author: async (r, ctx) => ({ kind: 'siteUser', user: await siteUserById(ctx, r.entry.authorId) }),
    deletedby: async (r, ctx) => ({ kind: 'siteUser', user: await siteUserById(ctx, r.entry.deletedBy) }),
  },
  methods: {
    restore: voidAction('Restore', 'EditListItems', async (r, _args, ctx) => restoreAll([r.entry], ctx)),
    movetosecondstage: voidAction('MoveToSecondStage', 'DeleteListItems', async (r, _args, ctx) => moveAll([r.entry], ctx)),
  },
  async get(r, ctx) {
    return projectedEntity(await entryEntity(r, r.entry, ctx, new Map()), people(r.entry, ctx), ITEM_TYPE, ctx);
  },
  // DELETE, and DeleteObject (PnPjs's delete()) through the resolver: the entry gone for good.
  async delete(r, ctx) {
    await removeAll([r.entry], ctx);
    return voidResult('DeleteObject');
  },
};

function intArg(args: Argument[], name: string): number | undefined {
  const literal = argumentLiteral(argument(args, name));
  if (literal === undefined || literal.type === 'null') return undefined;
  if (literal.type === 'number' && Number.isInteger(literal.value)) return literal.value;
  if (literal.type === 'string' && /^-?\d+$/.test(literal.value)) return Number(literal.value);
  throw errors.badArgument(name);
}

function boolArg(args: Argument[], name: string): boolean | undefined {
  const literal = argumentLiteral(argument(args, name));
  if (literal === undefined || literal.type === 'null') return undefined;
  if (literal.type === 'boolean') return literal.value;
  if (literal.type === 'string' && /^(true|false)$/i.test(literal.value)) return literal.value.toLowerCase() === 'true';
  throw errors.badArgument(name);
}

/** `GetRecycleBinItems(rowLimit=…,isAscending=…,orderBy=…,itemState=…,pagingInfo='…')` and GetRecycleBinItemsByQueryInfo's names. */
function binView(args: Argument[]): BinView {
  // Positional arguments are not SharePoint's habit here: every client names them.
  if (args.some((a) => a.name === undefined)) throw errors.badArgument('rowLimit');
  const paging = argumentLiteral(argument(args, 'pagingInfo'));
  const rowLimit = intArg(args, 'rowLimit');
  if (rowLimit !== undefined && rowLimit < 0) throw errors.badArgument('rowLimit');
  return {
    rowLimit, ascending: boolArg(args, 'isAscending') ?? true, orderBy: intArg(args, 'orderBy') ?? 0,
    state: intArg(args, 'itemState'), pagingInfo: paging?.type === 'string' ? paging.value : undefined,
    onlyMine: boolArg(args, 'ShowOnlyMyItems') ?? false,
  };
}

const viewMethod = (scope: BinScope): MethodDef<{ kind: 'web'; web: Web } | { kind: 'site' }> => ({
  kind: 'function',
  async invoke(r, args, ctx) {
    const web = r.kind === 'web' ? r.web : (await ctx.store.sites.web(ctx.site.rootWebId)) ?? ctx.web;
    return { kind: 'recycleBin', scope, web, view: binView(args) };
  },
});

/** SP.Web's: its bin, and views of it. */
export const webRecycleBinNavigation = {
  recyclebin: async (r: { web: Web }) => ({ kind: 'recycleBin' as const, scope: 'web' as const, web: r.web }),
};
export const webRecycleBinMethods = {
  getrecyclebinitems: viewMethod('web'),
  getrecyclebinitemsbyqueryinfo: viewMethod('web'),
};

/** SP.Site's: the site collection's bin (both stages), and views of it. */
export const siteRecycleBinNavigation = {
  recyclebin: async (_r: unknown, ctx: ApiContext) => ({ kind: 'recycleBin' as const, scope: 'site' as const, web: (await ctx.store.sites.web(ctx.site.rootWebId)) ?? ctx.web }),
};
export const siteRecycleBinMethods = {
  getrecyclebinitems: viewMethod('site'),
};
