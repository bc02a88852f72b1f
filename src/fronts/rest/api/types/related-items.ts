// SP.RelatedItemManager's static methods, POSTed at `_api/SP.RelatedItemManager.<Method>` with
// their arguments in the body (PnPjs's `web.relatedItems`): links from an item to other items
// and documents, kept in the source item's `RelatedItems` field (domain/related-items.ts; the
// write rules in services/related-items.ts). A list is named by its title or its id, a web by
// its URL (server-relative or absolute) in this site collection, an item by its list and ID or
// by its URL (a document's own, or an item's `DispForm.aspx?ID=n`). Changing a link needs
// EditListItems on the item that holds it (and ViewListItems on the one it points at); reading
// links needs ViewListItems on the item, and only the linked items the caller may see, and
// that are still there, are answered.

import { decodeUrlText, placePath } from '../../../../domain/documents.ts';
import { fail } from '../../../../domain/errors.ts';
import type { Item, List, Web } from '../../../../domain/model.ts';
import { parseLinks, RELATED_ITEMS_FIELD, RELATED_ITEMS_PAGE_ONE, type RelatedLink } from '../../../../domain/related-items.ts';
import { documentAt, locate, webAt } from '../../../../services/document-paths.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Value } from '../../../../wire/values.ts';
import { mayOnItem, requireOnItem } from '../authorize-on.ts';
import { boolProp, intProp, readMethodBody, stringProp, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl } from '../entities.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import type { MethodDef, ResourceType } from '../resource.ts';
import { guidText } from './shared.ts';
import { iconFileName } from './list-extras.ts';

type Manager = { kind: 'relatedItemManager' };

/** An item as a link names it: where it is and what it is. */
interface End {
  web: Web;
  list: List;
  item: Item;
}

const GUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === '') throw errors.badArgument(`Value cannot be null.\r\nParameter name: ${name}`);
  return value;
}
const text = (body: Properties, name: string): string => required(stringProp(body, name), name);
const itemId = (body: Properties, name: string): number => required(intProp(body, name), name);

/** The web at a URL in this site collection; none given: the web the request is addressed to. */
async function webNamed(url: string | undefined, ctx: ApiContext): Promise<Web> {
  if (!url) return ctx.web;
  const found = await webAt(ctx.store, pathOf(url));
  if (!found || found.site.id !== ctx.site.id) throw errors.siteNotFound(url);
  return found.web;
}

/** A list of `web` by its id (any GUID form) or, failing the GUID form, its title: SharePoint's errors for each. */
async function listNamed(web: Web, name: string, ctx: ApiContext): Promise<List> {
  if (GUID.test(name.trim())) {
    const list = await ctx.store.lists.byId(web.id, guidText(name));
    if (!list) throw errors.listNotFoundById();
    return list;
  }
  const list = await ctx.store.lists.byTitle(web.id, name);
  if (!list) throw errors.listNotFoundByTitle(name, absoluteUrl(ctx, web.serverRelativeUrl));
  return list;
}

async function itemIn(web: Web, list: List, id: number, ctx: ApiContext): Promise<End> {
  const item = await ctx.store.items.get(list, await ctx.store.fields.of(list), id);
  if (!item) throw fail.itemNotFound();
  return { web, list, item };
}

async function itemNamed(body: Properties, listArg: string, idArg: string, webArg: string | undefined, ctx: ApiContext): Promise<End> {
  const web = await webNamed(webArg ? stringProp(body, webArg) : undefined, ctx);
  const list = await listNamed(web, text(body, listArg), ctx);
  return itemIn(web, list, itemId(body, idArg), ctx);
}

const pathOf = (url: string): string => decodeUrlText(/^https?:\/\//i.test(url) ? new URL(url).pathname : url.split(/[?#]/)[0]!);

/** The item a URL names: a file or folder at its own URL, or a list item by its display form's `?ID=`. */
async function itemAtUrl(url: string, ctx: ApiContext): Promise<End> {
  const path = pathOf(url);
  const found = await webAt(ctx.store, path, { deepest: true });
  if (!found || found.site.id !== ctx.site.id) throw fail.fileNotFound(path);
  const form = /\/dispform\.aspx$/i.test(path) ? /[?&]ID=(\d+)/i.exec(url) : null;
  if (form) {
    const at = await locate(ctx.store, found.web, path);
    if (!at) throw fail.fileNotFound(path);
    return itemIn(found.web, at.list, Number(form[1]), ctx);
  }
  const doc = await documentAt(ctx.store, found.web, path);
  if (!doc?.item) throw fail.fileNotFound(path);
  return { web: found.web, list: doc.list, item: doc.item };
}

const linkTo = (end: End): RelatedLink => ({ itemId: end.item.id, webId: end.web.id, listId: end.list.id });

/**
 * Links `source` to `target`: the caller edits the source and sees the target. With `reverse`
 * (TryAddReverseLink), the target links back too where it can: it holds links and the caller may
 * edit it (a try: where not, the one link stands).
 */
async function addLink(source: End, target: End, reverse: boolean, ctx: ApiContext): Promise<void> {
  await requireOnItem(source.list, source.item, 'EditListItems', ctx);
  await requireOnItem(target.list, target.item, 'ViewListItems', ctx);
  await ctx.services.relatedItems.link(source.list, source.item.id, linkTo(target));
  if (reverse && await ctx.services.relatedItems.canHoldLinks(target.list) && await mayOnItem(target.list, target.item, 'EditListItems', ctx)) {
    await ctx.services.relatedItems.link(target.list, target.item.id, linkTo(source));
  }
}


const action = (invoke: (body: Properties, ctx: ApiContext) => Promise<Outcome>): MethodDef<Manager> => ({
  // Open here; the item-level checks are made on the items the body names.
  kind: 'action', permission: 'Open', body: 'json',
  invoke: (_r, _args, ctx) => invoke(readMethodBody(ctx), ctx),
});

/** GetRelatedItems / GetPageOneRelatedItems: the links of an item of this web, as SP.RelatedItem values. */
function reading(methodName: string, limit: number | undefined): MethodDef<Manager> {
  return action(async (body, ctx) => {
    const source = await itemNamed(body, 'SourceListName', 'SourceItemID', undefined, ctx);
    await requireOnItem(source.list, source.item, 'ViewListItems', ctx);
    // A list that holds no links has none to read: the same refusal as linking from it.
    if (!(await ctx.services.relatedItems.canHoldLinks(source.list))) throw fail.badArgument('Value does not fall within the expected range.');
    const items: Value[] = [];
    for (const link of parseLinks(source.item.values[RELATED_ITEMS_FIELD])) {
      if (limit !== undefined && items.length >= limit) break;
      const value = await relatedItem(link, ctx);
      if (value) items.push(value);
    }
    return ok({ kind: 'primitive', methodName, edmType: 'Collection(SP.RelatedItem)', value: { kind: 'collection', elementType: 'SP.RelatedItem', items } });
  });
}

/** The SP.RelatedItem a link points at, when it is still there and the caller may see it. */
async function relatedItem(link: RelatedLink, ctx: ApiContext): Promise<Value | undefined> {
  const web = link.webId === ctx.web.id ? ctx.web : await ctx.store.sites.web(link.webId);
  if (!web || web.siteId !== ctx.site.id) return undefined;
  const list = await ctx.store.lists.byId(web.id, link.listId);
  if (!list) return undefined;
  const item = await ctx.store.items.get(list, await ctx.store.fields.of(list), link.itemId);
  if (!item || !(await mayOnItem(list, item, 'ViewListItems', ctx))) return undefined;
  const named = item.place.name !== null;
  const icon = item.place.folder ? 'folder.gif' : named ? iconFileName(item.place.name!) : 'icgen.gif';
  return {
    kind: 'complex', type: 'SP.RelatedItem', props: [
      // In the order PnPjs's IRelatedItem declares them (INFERRED to be SharePoint's).
      ['ListId', list.id],
      ['ItemId', item.id],
      ['Url', named ? `${list.serverRelativeUrl}/${placePath(item.place)}` : `${list.serverRelativeUrl}/DispForm.aspx?ID=${item.id}`],
      ['Title', named ? item.place.name! : String(item.values.Title ?? '')],
      ['WebId', web.id],
      ['IconUrl', `/_layouts/15/images/${icon}`],
    ],
  };
}

export const relatedItemManagerType: ResourceType<Manager> = {
  methods: {
    getrelateditems: reading('GetRelatedItems', undefined),
    getpageonerelateditems: reading('GetPageOneRelatedItems', RELATED_ITEMS_PAGE_ONE),
    addsinglelink: action(async (body, ctx) => {
      const source = await itemNamed(body, 'SourceListName', 'SourceItemID', 'SourceWebUrl', ctx);
      const target = await itemNamed(body, 'TargetListName', 'TargetItemID', 'TargetWebUrl', ctx);
      await addLink(source, target, boolProp(body, 'TryAddReverseLink') ?? false, ctx);
      return voidResult('AddSingleLink');
    }),
    addsinglelinktourl: action(async (body, ctx) => {
      const source = await itemNamed(body, 'SourceListName', 'SourceItemID', undefined, ctx);
      const target = await itemAtUrl(text(body, 'TargetItemUrl'), ctx);
      await addLink(source, target, boolProp(body, 'TryAddReverseLink') ?? false, ctx);
      return voidResult('AddSingleLinkToUrl');
    }),
    addsinglelinkfromurl: action(async (body, ctx) => {
      const source = await itemAtUrl(text(body, 'SourceItemUrl'), ctx);
      const target = await itemNamed(body, 'TargetListName', 'TargetItemID', undefined, ctx);
      await addLink(source, target, boolProp(body, 'TryAddReverseLink') ?? false, ctx);
      return voidResult('AddSingleLinkFromUrl');
    }),
    /** The target need not be there any more: a link to a deleted item is removed all the same. */
    deletesinglelink: action(async (body, ctx) => {
      const source = await itemNamed(body, 'SourceListName', 'SourceItemID', 'SourceWebUrl', ctx);
      const targetWeb = await webNamed(stringProp(body, 'TargetWebUrl'), ctx);
      const targetList = await listNamed(targetWeb, text(body, 'TargetListName'), ctx);
      const target: RelatedLink = { itemId: itemId(body, 'TargetItemID'), webId: targetWeb.id, listId: targetList.id };
      await requireOnItem(source.list, source.item, 'EditListItems', ctx);
      await ctx.services.relatedItems.unlink(source.list, source.item.id, target);
      if (boolProp(body, 'TryDeleteReverseLink') ?? false) {
        const back = await ctx.store.items.get(targetList, await ctx.store.fields.of(targetList), target.itemId);
        if (back && await ctx.services.relatedItems.canHoldLinks(targetList) && await mayOnItem(targetList, back, 'EditListItems', ctx)) {
          await ctx.services.relatedItems.unlink(targetList, back.id, linkTo(source));
        }
      }
      return voidResult('DeleteSingleLink');
    }),
  },
};
