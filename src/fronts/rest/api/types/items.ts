// List items: querying (filter, order and paging run in the database), reading one,
// creating, updating with etags, deleting and recycling.

import { fail } from '../../../../domain/errors.ts';
import { placePath } from '../../../../domain/documents.ts';
import type { Field, Item, List } from '../../../../domain/model.ts';
import { FIELD_KINDS } from '../../../../domain/field-kinds.ts';
import { fieldByPropertyName, findField } from '../../../../domain/fields.ts';
import { listItemEntitySetName } from '../../../../domain/names.ts';
import { errors } from '../../../../wire/errors.ts';
import type { SortKey } from '../../../../store/store.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink, selectProps } from '../entities.ts';
import { readItemValues } from '../item-input.ts';
import { lookupTarget, planItemProjection, type ItemPlan, type LookupTarget } from '../item-projection.ts';
import { itemPayload, itemsPayload } from '../item-writer.ts';
import { pageColumns } from '../page-columns.ts';
import { nextLink, pageSize, positionFromSkipToken } from '../paging.ts';
import { noContent, ok, type Outcome, voidResult } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { checkThreshold } from '../threshold.ts';
import { contentTypeOfItem } from './content-types.ts';
import { visibleOnly } from '../item-visibility.ts';
import { validateUpdateListItem } from './form-updates.ts';
import { argument, emptyOk, integerArgument } from './shared.ts';
import { argumentLiteral } from '../../../../odata/path.ts';
import { fieldValuesEntity, type FieldValuesForm } from '../field-values.ts';
import { getUserEffectivePermissions, securableMethods, securableNavigation, type SecurableOf } from './security.ts';

import { sharedItem, sharingMethods } from './sharing.ts';

type ItemsResource = { kind: 'items'; list: List };
type ItemResource = { kind: 'item'; list: List; id: number };


function sortKeys(ctx: ApiContext, fields: Field[]): SortKey[] {
  return ctx.query.orderBy.map((o) => {
    const name = o.path.join('/');
    const found = o.path.length === 1 ? findField(fields, o.path[0]!) : undefined;
    if (!found) throw errors.unknownColumn(name);
    if (!FIELD_KINDS[found.field.kind].queryable) throw errors.badArgument(`The field '${name}' cannot be used to sort.`);
    return { field: found.field, descending: o.direction === 'desc' };
  }).filter((k) => k.field.internalName !== 'ID' || k.descending);
}

/** Expanded User/Lookup fields by internal name: the filter may reach into these (`Author/Title`). */
async function filterLookups(ctx: ApiContext, list: List, fields: Field[]): Promise<Map<string, LookupTarget>> {
  const lookups = new Map<string, LookupTarget>();
  for (const [head] of ctx.query.expand) {
    const field = head === undefined ? undefined : fieldByPropertyName(fields, head);
    if (!field || !FIELD_KINDS[field.kind].reference) continue;
    if (lookups.has(field.internalName)) continue;
    const target = await lookupTarget(field, list, ctx);
    if (target) lookups.set(field.internalName, target);
  }
  return lookups;
}

async function queryItems(r: ItemsResource, ctx: ApiContext): Promise<Outcome> {
  const fields = await ctx.store.fields.of(r.list);
  const plan = await planItemProjection(r.list, fields, ctx);
  const keys = sortKeys(ctx, fields);
  await checkThreshold(ctx, r.list, fields, ctx.query.filter, keys);
  const top = pageSize(ctx);
  const page = await ctx.store.items.query(r.list, fields, {
    filter: await visibleOnly(ctx.query.filter, r.list, ctx), filterText: ctx.query.filterText, orderBy: keys, top,
    // Sort keys' values go into the next link's skiptoken, so they are read too (page-columns.ts).
    ...pageColumns(plan, keys),
    after: positionFromSkipToken(ctx, keys), backwards: ctx.query.skipToken?.pagedPrev,
    lookups: await filterLookups(ctx, r.list, fields),
  });
  const last = page.items[ctx.query.skipToken?.pagedPrev ? 0 : page.items.length - 1];
  const next = page.hasMore && last ? nextLink(ctx, keys, last) : undefined;
  return ok(await itemsPayload(plan, page.items, listItemEntitySetName(r.list.entityTypeName), next, ctx));
}

async function itemOutcome(list: List, fields: Field[], item: Item, ctx: ApiContext, status = 200, plan?: ItemPlan): Promise<Outcome> {
  plan ??= await planItemProjection(list, fields, ctx);
  const headers: Record<string, string> = { ETag: `"${item.version}"` };
  if (status === 201) headers.Location = `${ctx.apiUrl}${listEditLink(list)}/Items(${item.id})`;
  return { status, headers, payload: await itemPayload(plan, item, listItemEntitySetName(list.entityTypeName), ctx) };
}

async function loadItem(r: ItemResource, ctx: ApiContext): Promise<{ fields: Field[]; item: Item }> {
  const fields = await ctx.store.fields.of(r.list);
  const item = await ctx.store.items.get(r.list, fields, r.id);
  if (!item) throw errors.itemNotFound();
  return { fields, item };
}

export const itemsType: ResourceType<ItemsResource> = {
  permissions: { get: 'ViewListItems', create: 'AddListItems' },
  key: async (r, args) => ({ kind: 'item', list: r.list, id: integerArgument(args) }),
  methods: {
    getbyid: { kind: 'function', invoke: async (r, args) => ({ kind: 'item', list: r.list, id: integerArgument(args, 'id') }) },
  },
  get: queryItems,
  async create(r, ctx) {
    const fields = await ctx.store.fields.of(r.list);
    const item = await ctx.services.items.create(r.list, fields, readItemValues(ctx, r.list, fields));
    // The created item comes back whole, whatever `$select` the URL carried.
    return itemOutcome(r.list, fields, item, { ...ctx, query: { ...ctx.query, select: undefined, selectText: undefined, expand: [] } }, 201);
  },
};

export const itemType: ResourceType<ItemResource> = {
  permissions: { get: 'ViewListItems', update: 'EditListItems', delete: 'DeleteListItems' },
  navigation: {
    parentlist: async (r) => ({ kind: 'list', list: r.list }),
    fieldvaluesastext: async (r) => ({ kind: 'itemFieldValues', list: r.list, id: r.id, as: 'text' }),
    fieldvaluesashtml: async (r) => ({ kind: 'itemFieldValues', list: r.list, id: r.id, as: 'html' }),
    fieldvaluesforedit: async (r) => ({ kind: 'itemFieldValues', list: r.list, id: r.id, as: 'edit' }),
    versions: async (r) => ({ kind: 'itemVersions', list: r.list, id: r.id }),
    attachmentfiles: async (r) => ({ kind: 'attachments', list: r.list, id: r.id }),
    comments: async (r) => ({ kind: 'comments', list: r.list, id: r.id }),
    likedby: async (r) => ({ kind: 'itemLikes', list: r.list, id: r.id }),
    likedbyinformation: async (r) => ({ kind: 'itemLikedByInformation', list: r.list, id: r.id }),
    contenttype: async (r, ctx) => contentTypeOfItem(r.list, (await loadItem(r, ctx)).item.contentTypeId, ctx),
    /** The file or folder the item is (SharePoint answers 404 for an item that is neither). */
    file: async (r, ctx) => {
      const { item } = await loadItem(r, ctx);
      if (!item.file || item.place.folder) throw fail.fileNotFoundById();
      return { kind: 'file', list: r.list, item };
    },
    /** The folder the item is; a file or an ordinary item is none, and SharePoint answers null (not an error) for it. */
    folder: async (r, ctx) => {
      const { item } = await loadItem(r, ctx);
      if (!item.place.folder) return { kind: 'readOnly', read: async () => voidResult('Folder') };
      return { kind: 'folder', list: r.list, path: placePath(item.place) };
    },
    ...securableNavigation<ItemResource>(itemSecurable, true),
  },
  methods: {
    getusereffectivepermissions: getUserEffectivePermissions,
    ...securableMethods<ItemResource>(itemSecurable),
    ...sharingMethods<ItemResource>((r, ctx) => sharedItem(r.list, r.id, ctx)),
    validateupdatelistitem: validateUpdateListItem,
    /** `items(n)/like` and `unlike` (PnPjs's page like()/unlike()): the caller's like of the item, as Reputation.SetLike. */
    like: likeItem(true),
    unlike: likeItem(false),
    /** `SetCommentsDisabled(true|false)`: addresses the setting, which the MERGE (or POST) that follows writes (site-pages.ts). */
    setcommentsdisabled: {
      kind: 'function',
      async invoke(r, args) {
        const literal = argumentLiteral(argument(args, 'value'));
        const disabled = literal?.type === 'boolean' ? literal.value : literal?.type === 'string' ? { true: true, false: false }[literal.value.toLowerCase()] : undefined;
        if (typeof disabled !== 'boolean') throw errors.badArgument('SetCommentsDisabled takes true or false.');
        return { kind: 'itemCommentsSetting', list: r.list, id: r.id, disabled };
      },
    },
    /**
     * The URL of the Office Online (WOPI) frame for the item's document: spemu has no WOPI
     * application, so it is "" as SharePoint answers for items without one. `action` is
     * 0 view, 1 edit, 2 mobile view, 3 interactive preview.
     */
    getwopiframeurl: {
      kind: 'action', permission: 'ViewListItems',
      async invoke(r, args, ctx) {
        const action = args.length ? integerArgument(args, 'action') : 0;
        if (action > 3) throw errors.badArgument(`The value ${action} is not a valid SPWOPIFrameAction (0 view, 1 edit, 2 mobileView, 3 interactivePreview).`);
        await loadItem(r, ctx);
        return ok({ kind: 'primitive', methodName: 'GetWOPIFrameUrl', edmType: 'Edm.String', value: '' });
      },
    },
    recycle: {
      kind: 'action', permission: 'DeleteListItems',
      async invoke(r, _args, ctx) {
        const id = await ctx.services.items.recycle(r.list, await ctx.store.fields.of(r.list), r.id);
        return ok({ kind: 'primitive', methodName: 'Recycle', edmType: 'Edm.Guid', value: id });
      },
    },
  },
  async get(r, ctx) {
    const fields = await ctx.store.fields.of(r.list);
    const plan = await planItemProjection(r.list, fields, ctx);
    // Only the columns the projection reads (a plan's `load` and `parts`).
    const item = await ctx.store.items.get(r.list, fields, r.id, plan.load, plan.parts);
    if (!item) throw errors.itemNotFound();
    return itemOutcome(r.list, fields, item, ctx, 200, plan);
  },
  async update(r, ctx) {
    const fields = await ctx.store.fields.of(r.list);
    const updated = await ctx.services.items.update(r.list, fields, r.id, readItemValues(ctx, r.list, fields), ctx.conditions);
    return noContent({ ETag: `"${updated.version}"` });
  },
  async delete(r, ctx) {
    await ctx.services.items.delete(r.list, await ctx.store.fields.of(r.list), r.id, ctx.conditions);
    return emptyOk();
  },
};

/** FieldValuesAsText / AsHtml / ForEdit: every field's value as SharePoint shows it. */
export const itemFieldValuesType: ResourceType<{ kind: 'itemFieldValues'; list: List; id: number; as: FieldValuesForm }> = {
  async get(r, ctx) {
    const { fields, item } = await loadItem({ kind: 'item', list: r.list, id: r.id }, ctx);
    const link = `${listEditLink(r.list)}/Items(${r.id})/FieldValues${{ text: 'AsText', html: 'AsHtml', edit: 'ForEdit' }[r.as]}`;
    const entity = await fieldValuesEntity(r.list, fields, item, r.as, link, ctx);
    return ok({ kind: 'entity', metadataName: entity.type, entity: selectProps(entity, ctx.query.select) });
  },
};

/** An item as a securable object (it must exist). */
async function itemSecurable(r: ItemResource, ctx: ApiContext): ReturnType<SecurableOf<ItemResource>> {
  await loadItem(r, ctx);
  return { base: `${listEditLink(r.list)}/Items(${r.id})`, securable: { kind: 'item', web: ctx.web, list: r.list, id: r.id } };
}

function likeItem(like: boolean) {
  return {
    kind: 'action' as const, permission: 'ViewListItems' as const, body: 'none' as const,
    async invoke(r: ItemResource, _args: unknown, ctx: ApiContext): Promise<Outcome> {
      await ctx.services.comments.likeItem(r.list, r.id, like);
      return emptyOk();
    },
  };
}
