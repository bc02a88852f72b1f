// Item reads written straight to JSON text (issue #13). For an item plan and a dialect, a
// writer is compiled once (request-cache.ts `compiledFor`: held by the plan, so dropped with it
// when the store generation moves) with every constant part made as a string — member keys with
// their commas, quoted type names, link prefixes, annotation keys — so a read turns its rows into
// text with no entity objects in between. The text is byte for byte what the entities give through
// the serializer (test/unit/item-writer.test.ts holds it to the reference writers). What it does
// not cover is written from the entities as before: ParentList, RoleAssignments, AttachmentFiles and
// HasUniqueRoleAssignments (read beyond the rows), names an object would reorder or merge
// (direct-json.ts `plainName`), constants or an API URL that need JSON escapes.

import { randomUUID } from 'node:crypto';
import type { Item } from '../../../domain/model.ts';
import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import { storedValue } from '../../../domain/items.ts';
import { listItemEntityTypeFullName, odataPropertyName } from '../../../domain/names.ts';
import { storedArray } from '../../../domain/values.ts';
import type { Dialect } from '../../../wire/dialect.ts';
import { key, LIGHT_ANNOTATIONS, lightPropertyValue, NOT_PLAIN, plainName, verbosePropertyValue, type Level } from '../../../wire/direct-json.ts';
import { jsonString } from '../../../wire/json-writer.ts';
import type { SerializeContext } from '../../../wire/serializer.ts';
import type { Entity, EntitySet, SingleEntity, Value } from '../../../wire/values.ts';
import { compiledFor } from '../request-cache.ts';
import type { ApiContext } from './context.ts';
import { listEditLink } from './entities.ts';
import { absolutePhotoLink, itemEntities, ITEM_NAVIGATION, loadExpanded, readsBeyondRows, renderItems, type ExpandedRows, type ItemPlan } from './item-projection.ts';
import { defaultWireProps, selectableWireProps, type WireGetter } from './item-wire.ts';

/** The single item `plan` projects, as a payload that writes itself where its shape allows. */
export async function itemPayload(plan: ItemPlan, item: Item, metadataName: string, ctx: ApiContext): Promise<SingleEntity> {
  if (readsBeyondRows(plan)) return { kind: 'entity', metadataName, entity: (await renderItems(plan, [item], ctx))[0]! };
  return new ItemPayload(plan, item, await loadExpanded(plan, [item], ctx), metadataName, ctx);
}

/** A page of items under `plan`, likewise. */
export async function itemsPayload(plan: ItemPlan, items: Item[], metadataName: string, nextLink: string | undefined, ctx: ApiContext): Promise<EntitySet> {
  if (readsBeyondRows(plan)) return { kind: 'entitySet', metadataName, entities: await renderItems(plan, items, ctx), nextLink };
  return new ItemsPayload(plan, items, await loadExpanded(plan, items, ctx), metadataName, nextLink, ctx);
}

// The payloads are classes (their getters and `text` on the prototype), so a request makes one
// object per payload and no closures. The entities are built only if something reads them (the
// writer has no text for this dialect, a unit test).

class ItemPayload implements SingleEntity {
  readonly kind = 'entity';
  private built: Entity | undefined;
  constructor(private readonly plan: ItemPlan, private readonly item: Item, private readonly rows: ExpandedRows, readonly metadataName: string, private readonly ctx: ApiContext) {}

  get entity(): Entity { return (this.built ??= itemEntities(this.plan, [this.item], { loaded: this.rows }, this.ctx)[0]!); }

  text(dialect: Dialect, sctx: SerializeContext): string | undefined {
    const w = writerIn(this.plan, dialect, sctx);
    if (!w) return undefined;
    try {
      return w.single(w.members(this.item, this.rows, this.ctx, this.ctx.requestUrl.origin, sctx.apiUrl), this.metadataName, sctx);
    } catch (e) {
      return notPlain(e);
    }
  }
}

class ItemsPayload implements EntitySet {
  readonly kind = 'entitySet';
  private built: Entity[] | undefined;
  constructor(
    private readonly plan: ItemPlan, private readonly items: Item[], private readonly rows: ExpandedRows,
    readonly metadataName: string, readonly nextLink: string | undefined, private readonly ctx: ApiContext,
  ) {}

  get entities(): Entity[] { return (this.built ??= itemEntities(this.plan, this.items, { loaded: this.rows }, this.ctx)); }

  text(dialect: Dialect, sctx: SerializeContext): string | undefined {
    const w = writerIn(this.plan, dialect, sctx);
    if (!w) return undefined;
    try {
      const origin = this.ctx.requestUrl.origin;
      let body = '';
      for (let i = 0; i < this.items.length; i++) body += `${i ? ',' : ''}{${w.members(this.items[i]!, this.rows, this.ctx, origin, sctx.apiUrl)}}`;
      return w.set(body, this.metadataName, this.nextLink, sctx);
    } catch (e) {
      return notPlain(e);
    }
  }
}

/** The plan's writer in `dialect`; undefined (the entities are written instead) where it has none. */
function writerIn(plan: ItemPlan, dialect: Dialect, sctx: SerializeContext): ItemWriter | undefined {
  const writer = compiledFor(plan, dialect, () => compileItemWriter(plan, dialect));
  // Verbose splices the API URL into quoted links: one that needs escapes is left to the entities.
  return !writer || (writer.verbose && !escapeFree(sctx.apiUrl)) ? undefined : writer;
}

/** A value whose names an object would reorder or merge (direct-json.ts): written from the entities. */
function notPlain(e: unknown): undefined {
  if (e === NOT_PLAIN) return undefined;
  throw e;
}

export interface ItemWriter {
  verbose: boolean;
  /**
   * An item entity's members, without its braces. `origin`: the request's, read once per payload (a
   * URL's getter is not free); `apiUrl`: the serializer's, which verbose links start with.
   */
  members(item: Item, rows: ExpandedRows, ctx: ApiContext, origin: string, apiUrl: string): string;
  /** The single-entity payload around an item's members. */
  single(members: string, metadataName: string, ctx: SerializeContext): string;
  /** The entity-set payload around `entities` (`{…},{…}`). */
  set(entities: string, metadataName: string, nextLink: string | undefined, ctx: SerializeContext): string;
}

/** A string JSON writes as it is, between quotes: one that may be spliced into a quoted value. */
const escapeFree = (s: string) => jsonString(s).length === s.length + 2;

/** Distinct names an object keeps in order, as direct-json.ts requires of an entity's members. */
function plainNames(names: readonly string[]): boolean {
  return new Set(names).size === names.length && names.every(plainName);
}

/** A property's value as text in the dialect, its photo links made absolute as the entities have them. */
type ValueText = (v: Value) => string;
const propertyText = (valueText: ValueText, ctx: ApiContext, v: Value): string =>
  (typeof v === 'object' && v !== null ? valueText(absolutePhotoLink(v, ctx)) : valueText(v));

/** What each expanded user or lookup field writes, made once. */
interface ExpansionShape {
  /** Its index in the plan's expansions (and in ExpandedRows). */
  index: number;
  name: string;
  /** The target list's entity type (`SP.Data.UserInfoItem`). */
  type: string;
  multi: boolean;
  field: ItemPlan['expansions'][number]['field'];
  /** The target's properties: their keys (`"Title":`, with the comma before all but a none-level first) and getters. */
  props: Array<{ key: string; get: WireGetter; withOrigin: boolean }>;
}

function expansionShapes(plan: ItemPlan, firstComma: boolean): ExpansionShape[] | undefined {
  const shapes: ExpansionShape[] = [];
  for (const [index, e] of plan.expansions.entries()) {
    const known = selectableWireProps(e.target.list, e.target.fields);
    const props = e.names.length
      ? e.names.map((n) => ({ name: n, get: known.get(n)!.get, withOrigin: true }))
      : defaultWireProps(e.target.fields).map((p) => ({ name: p.name, get: p.get, withOrigin: false }));
    if (!plainNames(props.map((p) => p.name))) return undefined;
    const name = odataPropertyName(e.field.internalName);
    if (!escapeFree(name)) return undefined;
    shapes.push({
      index, name, type: listItemEntityTypeFullName(e.target.list.entityTypeName), multi: FIELD_KINDS[e.field.kind].multi, field: e.field,
      props: props.map((p, i) => ({ key: `${i || firstComma ? ',' : ''}${key(p.name)}`, get: p.get, withOrigin: p.withOrigin })),
    });
  }
  return shapes;
}

/** An expanded target entity's text, made once per expansion when the writer is compiled. */
type TargetText = (target: Item, ctx: ApiContext, origin: string) => string;

/** The text of an expanded field's value: null, one entity, or several (`open` and `close` around them). */
function expandedText(x: ExpansionShape, item: Item, rows: ExpandedRows, ctx: ApiContext, origin: string, entity: TargetText, open: string, close: string): string {
  const byId = rows[x.index]!;
  const stored = storedValue(x.field, item);
  if (!x.multi) {
    if (stored === null || stored === undefined) return 'null';
    const target = byId.get(Number(stored));
    return target ? entity(target, ctx, origin) : 'null';
  }
  let out = open;
  let first = true;
  for (const id of storedArray<number>(stored)) {
    const target = byId.get(id);
    if (!target) continue;
    out += (first ? '' : ',') + entity(target, ctx, origin);
    first = false;
  }
  return out + close;
}

/** An expanded target's members after its metadata. */
function targetMembers(x: ExpansionShape, target: Item, valueText: ValueText, ctx: ApiContext, origin: string): string {
  let out = '';
  for (const p of x.props) out += p.key + propertyText(valueText, ctx, p.withOrigin ? p.get(target, origin) : p.get(target));
  return out;
}

/** The writer for `plan` in `dialect`, or undefined where the shape is one it leaves to the entities. */
export function compileItemWriter(plan: ItemPlan, dialect: Dialect): ItemWriter | undefined {
  if (readsBeyondRows(plan)) return undefined;
  const itemsLink = `${listEditLink(plan.list)}/Items(`;
  const type = listItemEntityTypeFullName(plan.list.entityTypeName);
  if (!escapeFree(itemsLink)) return undefined;
  return dialect === 'verbose' ? verboseWriter(plan, itemsLink, type) : lightWriter(plan, dialect, itemsLink, type);
}

const LEVELS: Record<Exclude<Dialect, 'verbose'>, { version: 'v3' | 'v4'; level: Level }> = {
  minimal: { version: 'v3', level: 'minimal' }, nometadata: { version: 'v3', level: 'none' },
  'v4-minimal': { version: 'v4', level: 'minimal' }, 'v4-none': { version: 'v4', level: 'none' }, 'v4-full': { version: 'v4', level: 'full' },
};

/** JSON light (direct-json.ts `lightDirect`'s shapes). */
function lightWriter(plan: ItemPlan, dialect: Exclude<Dialect, 'verbose'>, itemsLink: string, type: string): ItemWriter | undefined {
  const { version, level } = LEVELS[dialect];
  const a = LIGHT_ANNOTATIONS[version];
  const withMetadata = level !== 'none';
  // Full metadata writes the item's navigation links, whose names then count among its members.
  const navigation = withMetadata && level === 'full' && plan.full ? ITEM_NAVIGATION : [];
  const expansions = expansionShapes(plan, withMetadata);
  if (!expansions) return undefined;
  const memberNames = [...expansions.map((x) => x.name), ...plan.props.map((p) => p.name)];
  if (!plainNames([...navigation, ...memberNames]) || !navigation.every(escapeFree)) return undefined;

  // `"odata.type":"T","odata.id":"` … `","odata.etag":"\"` v `\"","odata.editLink":"Web/Lists(guid'…')/Items(` id `)"`
  const head = `${key(a.type)}${jsonString(a.typePrefix + type)},${key(a.id)}"`;
  const etag = `",${key(a.etag)}"\\"`;
  const editLink = `\\"",${key(a.editLink)}"${itemsLink}`;
  const navigationLinks = navigation.map((nav) => [`,${key(nav + a.navigation)}"${itemsLink}`, `)/${nav}"`] as const);
  /** Where members begin: the comma before each, but for the first when nothing precedes it (none level). */
  let index = 0;
  const comma = () => (withMetadata || index++ > 0 ? ',' : '');
  const value = lightPropertyValue;
  const expanded = expansions.map((x) => {
    const targetHead = `{${key(a.type)}${jsonString(a.typePrefix + x.type)},${key(a.id)}"`;
    const entity: TargetText = withMetadata
      ? (target, ctx, origin) => `${targetHead}${randomUUID()}"${targetMembers(x, target, value, ctx, origin)}}`
      : (target, ctx, origin) => `{${targetMembers(x, target, value, ctx, origin)}}`;
    return {
      x, entity, pre: withMetadata ? `${comma()}${key(x.name + a.navigation)}"${itemsLink}` : comma(),
      post: withMetadata ? `)/${x.name}",${key(x.name)}` : key(x.name),
    };
  });
  const props = plan.props.map((p) => ({ key: comma() + key(p.name), get: p.get }));

  function members(item: Item, rows: ExpandedRows, ctx: ApiContext, origin: string): string {
    let out = withMetadata ? `${head}${randomUUID()}${etag}${item.version}${editLink}${item.id})"` : '';
    for (const [pre, post] of navigationLinks) out += pre + item.id + post;
    for (const { x, entity, pre, post } of expanded) {
      out += (withMetadata ? pre + item.id + post : pre + post) + expandedText(x, item, rows, ctx, origin, entity, '[', ']');
    }
    for (const p of props) out += p.key + propertyText(value, ctx, p.get(item, origin));
    return out;
  }

  const contextKey = key(a.context);
  /** The context annotation's value, kept for the last API URL, name and `$select` (every read of a URL repeats them). */
  let last = { apiUrl: '', name: '', select: undefined as string | undefined, text: '' };
  const context = (ctx: SerializeContext, name: string): string => {
    if (last.apiUrl === ctx.apiUrl && last.name === name && last.select === ctx.select) return last.text;
    const text = jsonString(`${ctx.apiUrl}$metadata#${name}${ctx.select !== undefined ? `&$select=${ctx.select}` : ''}`);
    last = { apiUrl: ctx.apiUrl, name, select: ctx.select, text };
    return text;
  };
  const valueKey = key('value');
  const nextLinkKey = `,${key(a.nextLink)}`;
  return {
    verbose: false,
    members,
    single: (body, metadataName, ctx) => (withMetadata
      ? `{${contextKey}${context(ctx, metadataName + a.element)}${body !== '' ? ',' : ''}${body}}`
      : `{${body}}`),
    set: (entities, metadataName, nextLink, ctx) =>
      `${withMetadata ? `{${contextKey}${context(ctx, metadataName)},` : '{'}${valueKey}[${entities}]${nextLink ? nextLinkKey + jsonString(nextLink) : ''}}`,
  };
}

/** `odata=verbose` (direct-json.ts `verboseDirect`'s shapes). */
function verboseWriter(plan: ItemPlan, itemsLink: string, type: string): ItemWriter | undefined {
  const navigation = plan.full ? ITEM_NAVIGATION : [];
  const expansions = expansionShapes(plan, true);
  if (!expansions) return undefined;
  const memberNames = [...expansions.map((x) => x.name), ...plan.props.map((p) => p.name)];
  if (!plainNames([...navigation, ...memberNames]) || !navigation.every(escapeFree)) return undefined;

  // `{"__metadata":{"id":"` … `","uri":"` apiUrl `Web/Lists(guid'…')/Items(` id `)","etag":"\"` v `\"","type":"T"}`
  const head = `${key('__metadata')}{${key('id')}"`;
  const uri = `",${key('uri')}"`;
  const etag = `)",${key('etag')}"\\"`;
  const tail = `\\"",${key('type')}${jsonString(type)}}`;
  const deferred = navigation.map((nav) => [`,${key(nav)}{${key('__deferred')}{${key('uri')}"`, `)/${nav}"}}`] as const);
  const value = verbosePropertyValue;
  const expanded = expansions.map((x) => {
    const targetTail = `",${key('type')}${jsonString(x.type)}}`;
    const entity: TargetText = (target, ctx, origin) => `{${head}${randomUUID()}${targetTail}${targetMembers(x, target, value, ctx, origin)}}`;
    return { x, key: `,${key(x.name)}`, entity };
  });
  const props = plan.props.map((p) => ({ key: `,${key(p.name)}`, get: p.get }));
  const results = `{${key('results')}[`;

  function members(item: Item, rows: ExpandedRows, ctx: ApiContext, origin: string, apiUrl: string): string {
    const link = apiUrl + itemsLink + item.id;
    let out = `${head}${randomUUID()}${uri}${link}${etag}${item.version}${tail}`;
    for (const [pre, post] of deferred) out += pre + link + post;
    for (const { x, key: k, entity } of expanded) out += k + expandedText(x, item, rows, ctx, origin, entity, results, ']}');
    for (const p of props) out += p.key + propertyText(value, ctx, p.get(item, origin));
    return out;
  }

  const d = key('d');
  const next = `,${key('__next')}`;
  return {
    verbose: true,
    members,
    single: (body) => `{${d}{${body}}}`,
    set: (entities, _name, nextLink) => `{${d}{${key('results')}[${entities}]${nextLink ? next + jsonString(nextLink) : ''}}}`,
  };
}
