// Turns items into entities under `$select` and `$expand`: validates the paths as
// SharePoint does, loads expanded users and lookups with one query per expanded field,
// and builds the entities in the dialect-neutral model.

import { storedValue } from '../../../domain/items.ts';
import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import type { Field, Item, List } from '../../../domain/model.ts';
import type { ItemPart } from '../../../store/items.ts';
import { listItemEntityTypeFullName, odataPropertyName } from '../../../domain/names.ts';
import { fieldByPropertyName } from '../../../domain/fields.ts';
import { storedArray } from '../../../domain/values.ts';
import { USER_INFO_LIST_TEMPLATE } from '../../../domain/templates.ts';
import { errors } from '../../../wire/errors.ts';
import type { Entity, Value } from '../../../wire/values.ts';
import type { ApiContext } from './context.ts';
import { folderEntity, freshEntityId, listEditLink, listEntity, selectProps, webEntity } from './entities.ts';
import { defaultWireProps, selectableWireProps, type WireProp } from './item-wire.ts';
import { roleAssignmentEntities } from './types/security.ts';
import { itemScopesOf, scopeKey } from '../../../identity/effective-permissions.ts';
import { attachmentEntity } from './types/attachments.ts';
import { compiledFor, plannedFor } from '../request-cache.ts';

/**
 * SharePoint Online's hidden `_CommentCount` (`OData__CommentCount` on the wire): not a column
 * here but counted from the item's comments when `$select` names it (docs/compatibility.md).
 */
const COMMENT_COUNT = '_CommentCount';

/** Navigation properties every item has, written as `__deferred` in verbose full projections. */
export const ITEM_NAVIGATION = ['FirstUniqueAncestorSecurableObject', 'RoleAssignments', 'AttachmentFiles', 'ContentType',
  'GetDlpPolicyTip', 'FieldValuesAsHtml', 'FieldValuesAsText', 'FieldValuesForEdit', 'File', 'Folder',
  'LikedByInformation', 'ParentList', 'Properties', 'Versions'];

export interface LookupTarget { list: List; fields: Field[] }

interface Expansion {
  field: Field;
  target: LookupTarget;
  /** Sub-properties named in `$select` (`Author/Title` → 'Title'); empty: the target's defaults. */
  names: string[];
  /** Target fields whose values the sub-properties read; undefined: all. */
  load?: Field[] | undefined;
}

export interface ItemPlan {
  list: List;
  fields: Field[];
  /** Scalar properties in output order; undefined entries are never produced. */
  props: WireProp[];
  expansions: Expansion[];
  parentList: boolean;
  /** True without `$select`: verbose then writes the `__deferred` navigation stubs. */
  full: boolean;
  /** `$expand=RoleAssignments`: each item's (inherited) role assignments. */
  roleAssignments?: boolean | undefined;
  /** `$expand=AttachmentFiles`: each item's attachments (CLI for Microsoft 365's `spo listitem attachment list`). */
  attachmentFiles?: boolean | undefined;
  /** `$select` (or `$expand`) names HasUniqueRoleAssignments, which SharePoint writes only then. */
  hasUniqueRoleAssignments?: boolean | undefined;
  /** `$select=_CommentCount`: each item's comments counted, one query per page (never on a read that does not name it). */
  commentCount?: boolean | undefined;
  /** Navigation properties of ParentList expanded below it. */
  parentNested: ReadonlySet<string>;
  /** The list's fields whose values the projection reads; undefined: all. */
  load?: Field[] | undefined;
  /** The parts of an item the projection reads beyond its id, guid, version, author and editor; undefined: all. */
  parts?: readonly ItemPart[] | undefined;
}

/** What each system property reads of an item (ItemRepository.get's `parts`); a property not named here reads everything. */
const SYSTEM_PARTS: Readonly<Record<string, readonly ItemPart[]>> = {
  Id: [], ID: [], GUID: [], UniqueId: [], AuthorId: [], EditorId: [], AuthorStringId: [], EditorStringId: [], owshiddenversion: [],
  ServerRedirectedEmbedUri: [], ServerRedirectedEmbedUrl: [], ComplianceAssetId: [],
  ContentTypeId: ['contentTypeId'], Created: ['created'], Modified: ['modified'], OData__UIVersionString: ['uiVersion'], Attachments: ['attachments'],
  FileSystemObjectType: ['place'], FSObjType: ['place'], FileRef: ['place'], EncodedAbsUrl: ['place'], FileLeafRef: ['place'], FileDirRef: ['place'], File_x0020_Type: ['place'],
  File_x0020_Size: ['file'], SMTotalFileStreamSize: ['file'], CheckoutUserId: ['file'],
  CommentsDisabled: [],
};

/** `$expand=AttachmentFiles` reads the item's attachment count (only items with some are looked up). */
const withAttachmentCount = (parts: ItemPart[] | undefined, attachmentFiles: boolean): ItemPart[] | undefined =>
  parts && attachmentFiles && !parts.includes('attachments') ? [...parts, 'attachments'] : parts;

/** `$expand=RoleAssignments` reads where each item is: its folders may hold its permissions. */
const withPlace = (parts: ItemPart[] | undefined, roleAssignments: boolean): ItemPart[] | undefined =>
  parts && roleAssignments && !parts.includes('place') ? [...parts, 'place'] : parts;

/** The item parts `props` read; undefined when one reads what the table does not know. */
function partsRead(props: WireProp[]): ItemPart[] | undefined {
  const parts = new Set<ItemPart>();
  for (const p of props) {
    // A field's own property reads its stored value (`load`), never the item's own parts.
    if (p.field && !Object.hasOwn(SYSTEM_PARTS, p.name)) continue;
    const read = Object.hasOwn(SYSTEM_PARTS, p.name) ? SYSTEM_PARTS[p.name] : undefined;
    if (!read) return undefined;
    read.forEach((part) => parts.add(part));
  }
  return [...parts];
}

/** The distinct fields a set of properties reads. */
const fieldsRead = (props: WireProp[]): Field[] => [...new Set(props.flatMap((p) => (p.field ? [p.field] : [])))];

/** The list a User/Lookup field points at: the site's User Information List or the lookup list. */
export async function lookupTarget(field: Field, list: List, ctx: ApiContext): Promise<LookupTarget | undefined> {
  const { store } = ctx;
  let target: List | undefined;
  if (FIELD_KINDS[field.kind].reference === 'user') {
    target = (await store.lists.inWeb(ctx.site.rootWebId)).find((l) => l.baseTemplate === USER_INFO_LIST_TEMPLATE);
  } else if (field.options.lookupListId) {
    target = await store.lists.byId(list.webId, field.options.lookupListId);
  }
  return target ? { list: target, fields: await store.fields.of(target) } : undefined;
}

const findByWireName = fieldByPropertyName;

/** A `$select`/`$expand` as one key (parsed queries are cached, so their arrays' keys are kept). */
const pathKeys = new WeakMap<object, string>();
function pathsKey(paths: readonly (readonly string[])[] | undefined): string {
  if (!paths) return '-';
  let key = pathKeys.get(paths);
  if (key === undefined) pathKeys.set(paths, (key = JSON.stringify(paths)));
  return key;
}

/**
 * The projection `$select` and `$expand` ask of `list`'s items: made once per distinct query
 * while the metadata stays as it is (request-cache.ts), as it depends on nothing else.
 */
export async function planItemProjection(list: List, fields: Field[], ctx: ApiContext): Promise<ItemPlan> {
  const key = `items ${list.rowId} ${pathsKey(ctx.query.select)} ${pathsKey(ctx.query.expand)}`;
  const planned = await plannedFor(ctx.store, key, async () => ({ list, fields, plan: await makeItemPlan(list, fields, ctx) }));
  return planned.list === list && planned.fields === fields ? planned.plan : makeItemPlan(list, fields, ctx);
}

async function makeItemPlan(list: List, fields: Field[], ctx: ApiContext): Promise<ItemPlan> {
  const { select, expand } = ctx.query;
  const expansions = new Map<string, Expansion>();
  let parentList = false;
  let roleAssignments = false;
  let attachmentFiles = false;
  let hasUniqueRoleAssignments = false;
  /** Second-level expansions below ParentList (`ParentList/RootFolder`, `ParentList/ParentWeb`). */
  const parentNested = new Set<string>();
  for (const path of expand) {
    const [head, ...rest] = path;
    if (!head) continue;
    if (head === 'ParentList') {
      parentList = true;
      const [nested, ...deeper] = rest;
      if (nested !== undefined) {
        if (deeper.length || !PARENT_LIST_NAVIGATION.has(nested)) throw errors.unknownSelectProperty(path.join('/'));
        parentNested.add(nested);
      }
      continue;
    }
    if (head === 'RoleAssignments' && rest.length === 0) {
      roleAssignments = true;
      continue;
    }
    if (head === 'AttachmentFiles' && rest.length === 0) {
      attachmentFiles = true;
      continue;
    }
    // Named in `$expand` too, as CLI for Microsoft 365 asks for it (as on webs and lists: security.ts).
    if (head === 'HasUniqueRoleAssignments' && rest.length === 0) {
      hasUniqueRoleAssignments = true;
      continue;
    }
    const field = findByWireName(fields, head);
    if (!field || !FIELD_KINDS[field.kind].reference) throw errors.unknownSelectProperty(head);
    if (rest.length) throw errors.unknownSelectProperty(path.join('/'));
    if (expansions.has(head)) continue;
    const target = await lookupTarget(field, list, ctx);
    if (!target) throw errors.unknownSelectProperty(head);
    expansions.set(head, { field, target, names: [] });
  }

  if (!select) {
    return { list, fields, props: defaultWireProps(fields), expansions: [...expansions.values()], parentList, parentNested, full: true, roleAssignments, attachmentFiles, hasUniqueRoleAssignments };
  }

  const selectable = selectableWireProps(list, fields);
  const props: WireProp[] = [];
  const seen = new Set<string>();
  const chosen = new Map<string, Expansion>();
  let wantParent = false;
  let commentCount = false;
  const add = (p: WireProp) => { if (!seen.has(p.name)) { seen.add(p.name); props.push(p); } };
  for (const path of select) {
    const [head, sub, ...deeper] = path;
    if (!head) continue;
    if (head === '*') { defaultWireProps(fields).forEach(add); continue; }
    // `odata.id` and the like name annotations, which every answer carries anyway (PnPjs selects them).
    if (head.startsWith('odata.')) continue;
    if (head === 'RoleAssignments' && roleAssignments && sub === undefined) continue;
    if (head === 'AttachmentFiles' && attachmentFiles && sub === undefined) continue;
    if (head === 'HasUniqueRoleAssignments' && sub === undefined) { hasUniqueRoleAssignments = true; continue; }
    if (head === COMMENT_COUNT && sub === undefined && !findByWireName(fields, head)) { commentCount = true; continue; }
    if (head === 'ParentList') {
      if (!parentList) throw errors.expandRequired(path.join('/'), head);
      wantParent = true;
      continue;
    }
    const expansion = expansions.get(head);
    const field = findByWireName(fields, head);
    if (field && FIELD_KINDS[field.kind].reference && !selectable.has(head)) {
      if (!expansion) throw errors.expandRequired(path.join('/'), head);
      if (deeper.length) throw errors.unknownSelectProperty(path.join('/'));
      if (sub !== undefined && sub !== '*') expansion.names.push(sub);
      chosen.set(head, expansion);
      continue;
    }
    if (sub !== undefined) throw errors.unknownSelectProperty(head);
    const prop = selectable.get(head);
    if (!prop) throw errors.unknownSelectProperty(head);
    add(prop);
  }
  // Validate expanded sub-names now, so a bad one fails even when no item matches.
  for (const e of chosen.values()) {
    const known = selectableWireProps(e.target.list, e.target.fields);
    for (const name of e.names) if (!known.has(name)) throw errors.unknownSelectProperty(name);
    if (e.names.length) e.load = fieldsRead(e.names.map((n) => known.get(n)!));
  }
  const expansionList = [...chosen.values()];
  const load = [...new Set([...fieldsRead(props), ...expansionList.map((e) => e.field)])];
  return { list, fields, props, expansions: expansionList, parentList: wantParent, parentNested, full: false, load, roleAssignments, attachmentFiles, hasUniqueRoleAssignments, commentCount, parts: withPlace(withAttachmentCount(partsRead(props), attachmentFiles), roleAssignments) };
}

/** The rows each expanded user or lookup field of `plan` points at from `items`, by target id; in `plan.expansions`' order. */
export type ExpandedRows = Array<Map<number, Item>>;

/** Expansions that read the same list (Author and Editor: the User Information List), read with one query. */
interface ExpansionGroup {
  target: LookupTarget;
  /** Indexes in `plan.expansions`. */
  indexes: number[];
  /** The target's columns any of them reads; undefined: every column (one wants the default projection). */
  load: Field[] | undefined;
}

/** The plan's expansions grouped by target list, in order of first appearance. */
function expansionGroups(plan: ItemPlan): ExpansionGroup[] {
  const groups = new Map<number, ExpansionGroup & { columns: Set<Field> | undefined }>();
  plan.expansions.forEach((e, i) => {
    let group = groups.get(e.target.list.rowId);
    if (!group) groups.set(e.target.list.rowId, (group = { target: e.target, indexes: [], load: undefined, columns: new Set<Field>() }));
    group.indexes.push(i);
    if (e.load && group.columns) e.load.forEach((f) => group.columns!.add(f));
    else group.columns = undefined;
  });
  return [...groups.values()].map(({ target, indexes, columns }) => ({ target, indexes, load: columns && [...columns] }));
}

/** Loads the rows `items`' expanded fields point at: one query per target list (groups made once per plan: request-cache.ts). */
export async function loadExpanded(plan: ItemPlan, items: Item[], ctx: ApiContext): Promise<ExpandedRows> {
  const rows: ExpandedRows = new Array(plan.expansions.length);
  if (plan.expansions.length === 0) return rows;
  for (const group of compiledFor(plan, 'expansion groups', () => expansionGroups(plan))) {
    // Repeated ids are read once (getMany keeps the first of each).
    const ids: number[] = [];
    for (const i of group.indexes) {
      const field = plan.expansions[i]!.field;
      const multi = FIELD_KINDS[field.kind].multi;
      for (const item of items) {
        const v = storedValue(field, item);
        if (multi) for (const id of storedArray<number>(v)) ids.push(id);
        else if (v !== null && v !== undefined) ids.push(Number(v));
      }
    }
    const found = ids.length ? await ctx.store.items.getMany(group.target.list, group.target.fields, ids, group.load) : [];
    const byId = new Map<number, Item>();
    for (const r of found) byId.set(r.id, r);
    for (const i of group.indexes) rows[i] = byId;
  }
  return rows;
}

/** Whether the plan's entities need more than the rows and their expanded rows (ParentList, role assignments, attachments, scopes). */
export const readsBeyondRows = (plan: ItemPlan): boolean =>
  plan.parentList || !!plan.roleAssignments || !!plan.attachmentFiles || !!plan.hasUniqueRoleAssignments || !!plan.commentCount;

/** What the entities of a page carry besides the rows: read once per page (renderItems). */
interface PageExtras {
  loaded: ExpandedRows;
  parent?: Entity | undefined;
  assignments?: Map<number, Entity[]> | undefined;
  scopes?: { has(key: string): boolean } | undefined;
  attachments?: Map<number, Entity[]> | undefined;
  comments?: Map<number, number> | undefined;
}

/** Builds the entities for `items` under `plan`. */
export async function renderItems(plan: ItemPlan, items: Item[], ctx: ApiContext): Promise<Entity[]> {
  const loaded = await loadExpanded(plan, items, ctx);
  if (!readsBeyondRows(plan)) return itemEntities(plan, items, { loaded }, ctx);
  const parent = plan.parentList ? parentListEntity({ ...plan, list: (await ctx.store.lists.withCounters([plan.list]))[0]! }, ctx) : undefined;
  // `$expand=RoleAssignments`: each item's assignments (its own, or what it inherits), read from the one cached scope map.
  const assignments = new Map<number, Entity[]>();
  if (plan.roleAssignments) {
    // Which items of the list are folders with unique permissions: read once for the page, and each item's folder is on its row.
    const { folders } = await itemScopesOf(ctx.store, ctx.site, plan.list);
    for (const item of items) {
      const base = `${listEditLink(plan.list)}/Items(${item.id})`;
      const dir = !plan.parts || plan.parts.includes('place') ? item.place.dir : undefined;
      const securable = { kind: 'item' as const, web: ctx.web, list: plan.list, id: item.id, dir, folders };
      assignments.set(item.id, await roleAssignmentEntities(base, securable, ctx));
    }
  }
  // HasUniqueRoleAssignments: whether the item is a scope of its own, in the one cached scope map.
  const scopes = plan.hasUniqueRoleAssignments ? await ctx.store.roleAssignments.scopes(ctx.site.id) : undefined;
  // `$expand=AttachmentFiles`: read only for items that have some (the Attachments count on the row).
  const attachments = new Map<number, Entity[]>();
  if (plan.attachmentFiles) {
    for (const item of items) {
      if ((item.attachments ?? 0) === 0) continue;
      attachments.set(item.id, (await ctx.store.attachments.of(plan.list, item.id)).map((a) => attachmentEntity(plan.list, item.id, a, ctx)));
    }
  }
  // `_CommentCount`: every item of the page counted in one query.
  const comments = plan.commentCount ? await ctx.store.comments.commentCounts(plan.list, items.map((i) => i.id)) : undefined;
  return itemEntities(plan, items, { loaded, parent, assignments, scopes, attachments, comments }, ctx);
}

/** The entities of `items` under `plan`, from what was read for them (synchronous: a compiled writer's fallback runs it while writing). */
export function itemEntities(plan: ItemPlan, items: Item[], { loaded, parent, assignments, scopes, attachments, comments }: PageExtras, ctx: ApiContext): Entity[] {
  // What every item of the page shares, made once: its type, where its links start, the expanded properties' names.
  const type = listItemEntityTypeFullName(plan.list.entityTypeName);
  const itemsLink = `${listEditLink(plan.list)}/Items(`;
  const origin = ctx.requestUrl.origin;
  const expansions = plan.expansions.map((e, i) => ({
    e, byId: loaded[i]!, name: odataPropertyName(e.field.internalName), multi: FIELD_KINDS[e.field.kind].multi,
    type: listItemEntityTypeFullName(e.target.list.entityTypeName), known: selectableWireProps(e.target.list, e.target.fields),
  }));
  return items.map((item) => {
    const editLink = `${itemsLink}${item.id})`;
    const props: Array<[string, Value]> = [];
    for (const x of expansions) {
      const stored = storedValue(x.e.field, item);
      const render = (id: number) => { const t = x.byId.get(id); return t ? expandedEntity(x.e, x.type, x.known, t, ctx) : undefined; };
      const value = x.multi
        ? storedArray<number>(stored).map(render).filter((v): v is Entity => v !== undefined)
        : stored === null || stored === undefined ? null : render(Number(stored)) ?? null;
      props.push([x.name, { kind: 'expanded', navigationLink: `${editLink}/${x.name}`, value }]);
    }
    if (parent) props.push(['ParentList', { kind: 'expanded', navigationLink: `${editLink}/ParentList`, value: parent }]);
    if (plan.roleAssignments) {
      props.push(['RoleAssignments', { kind: 'expanded', navigationLink: `${editLink}/RoleAssignments`, value: assignments?.get(item.id) ?? [] }]);
    }
    if (plan.attachmentFiles) {
      props.push(['AttachmentFiles', { kind: 'expanded', navigationLink: `${editLink}/AttachmentFiles`, value: attachments?.get(item.id) ?? [] }]);
    }
    for (const p of plan.props) props.push([p.name, absolutePhotoLink(p.get(item, origin), ctx)]);
    if (comments) props.push([odataPropertyName(COMMENT_COUNT), comments.get(item.id) ?? 0]);
    if (scopes) props.push(['HasUniqueRoleAssignments', scopes.has(scopeKey({ kind: 'item', web: ctx.web, list: plan.list, id: item.id }))]);
    return { type, id: freshEntityId(), editLink, etag: `"${item.version}"`, deferred: plan.full ? ITEM_NAVIGATION : undefined, props };
  });
}

/**
 * User Information List rows store their Picture as a server-relative userphoto.aspx link
 * (the origin is not known when a row is written); clients get it absolute, as SharePoint
 * Online writes it (reference §3).
 */
export function absolutePhotoLink(value: Value, ctx: ApiContext): Value {
  if (value === null || typeof value !== 'object' || !('kind' in value) || value.kind !== 'complex' || value.type !== 'SP.FieldUrlValue') return value;
  const absolute = (v: Value) => (typeof v === 'string' && /^\/_layouts\/15\/userphoto\.aspx\?/i.test(v) ? new URL(v, ctx.apiUrl).href : v);
  return { ...value, props: value.props.map(([k, v]) => [k, absolute(v)]) };
}

/** An expanded user or lookup target: `type` and `known` are its list's, made once per page (renderItems). */
function expandedEntity(e: Expansion, type: string, known: Map<string, WireProp>, target: Item, ctx: ApiContext): Entity {
  const props: Array<[string, Value]> = e.names.length
    ? e.names.map((n) => [n, absolutePhotoLink(known.get(n)!.get(target, ctx.requestUrl.origin), ctx)])
    : defaultWireProps(e.target.fields).map((p) => [p.name, absolutePhotoLink(p.get(target), ctx)]);
  return { type, id: freshEntityId(), props, minimalMetadata: true };
}

/** `$select=ParentList/Title` → [['Title']] for the expanded list; undefined: everything. */
function subSelect(paths: string[][] | undefined, head: string): string[][] | undefined {
  const below = (paths ?? []).filter((p) => p[0] === head && p.length > 1).map((p) => p.slice(1));
  return below.length ? below : undefined;
}

/** What may be expanded below ParentList, as PnPjs's getParentInfos does. */
const PARENT_LIST_NAVIGATION = new Set(['RootFolder', 'ParentWeb']);

/** The item's list, with `ParentList/RootFolder` and `ParentList/ParentWeb` expanded inside it when asked. */
function parentListEntity(plan: ItemPlan, ctx: ApiContext): Entity {
  const entity = listEntity(plan.list, ctx.web, ctx);
  const select = subSelect(ctx.query.select, 'ParentList');
  const link = listEditLink(plan.list);
  if (plan.parentNested.has('RootFolder')) {
    entity.props.push(['RootFolder', { kind: 'expanded', navigationLink: `${link}/RootFolder`, value: selectProps(folderEntity(plan.list, ctx), subSelect(select, 'RootFolder')) }]);
  }
  if (plan.parentNested.has('ParentWeb')) {
    entity.props.push(['ParentWeb', { kind: 'expanded', navigationLink: `${link}/ParentWeb`, value: selectProps(webEntity(ctx.web, ctx), subSelect(select, 'ParentWeb')) }]);
  }
  return selectProps(entity, select, plan.parentNested);
}
