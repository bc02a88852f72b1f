// Runs a parsed ProjectData request against the store: resolves the entity set, keys and
// navigation steps, turns the query options into one page query (server-driven paging with
// keyset skip tokens) and returns what to write. Knows nothing of HTTP or wire formats.

import type { PdEntitySet, PdNavigation, PdProperty, PdRow, PdValue } from '../../domain/projectdata/model.ts';
import type { PdPage, PdSiteOptions, PdSortKey, ProjectDataStore } from '../../store/projectdata.ts';
import type { KeyPredicate, PdOptions, PdRequest, PathStep } from './request.ts';
import { encodeTokenForUrl, literalText, literalValue } from './keys.ts';
import { NAMESPACE } from '../../domain/projectdata/model.ts';
import { PdError } from './errors.ts';
import { onPremisesPageSize } from '../../domain/projectdata/catalogue.ts';

export interface PdServiceContext {
  store: ProjectDataStore;
  siteId: string;
  site: PdSiteOptions;
  /** The sets with this site's custom properties. */
  schema: PdEntitySet[];
  /** `http://host/sites/pwa/_api/ProjectData/` (with the locale segment when the request had one). */
  baseUrl: string;
}

/** What a feed or entry shows of each row: selected properties, and navigation links (verbose, Atom). */
export interface Projection {
  properties: PdProperty[];
  navigations: PdNavigation[];
}

export type PdResult =
  | { kind: 'service'; sets: PdEntitySet[] }
  | { kind: 'metadata'; sets: PdEntitySet[] }
  | { kind: 'feed'; set: PdEntitySet; rows: PdRow[]; projection: Projection; selectText?: string | undefined; count?: number | undefined; nextLink?: string | undefined; feedPath: string }
  | { kind: 'entry'; set: PdEntitySet; row: PdRow; projection: Projection; selectText?: string | undefined }
  | { kind: 'property'; set: PdEntitySet; property: PdProperty; value: PdValue; raw: boolean }
  | { kind: 'count'; count: number };

/** Where a path leads: a filtered collection of a set, or one entity of it. */
interface Position {
  set: PdEntitySet;
  where: Array<{ property: string; value: PdValue }>;
  single: boolean;
  /** The path as written so far (for next links), relative to the service root. */
  path: string;
  /** The segment that named it, for 404 messages. */
  segment: string;
}

export async function runPdRequest(request: PdRequest, ctx: PdServiceContext): Promise<PdResult> {
  const { target, options } = request;
  if (target.kind === 'service') return { kind: 'service', sets: ctx.schema };
  if (target.kind === 'metadata') return { kind: 'metadata', sets: ctx.schema };
  if (options.expand !== undefined && options.expand.trim() !== '') throw PdError.notImplemented('$expand');

  let position = startAt(target.steps[0]!, ctx);
  let propertyStep: { property: PdProperty } | undefined;
  for (const [index, step] of target.steps.slice(1).entries()) {
    if (!position.single) {
      throw PdError.badRequest(`The request URI is not valid. Since the segment '${position.segment}' refers to a collection, this must be the last segment in the request URI. All intermediate segments must refer to a single resource.`);
    }
    const navigation = position.set.navigations.find((n) => n.name === step.name);
    if (navigation) {
      position = await follow(position, navigation, step, ctx);
      continue;
    }
    const property = position.set.properties.find((p) => p.name === step.name);
    if (!property || step.keys || index !== target.steps.length - 2) throw PdError.notFound(step.name);
    propertyStep = { property };
  }

  if (propertyStep) {
    const { property } = propertyStep;
    if (target.count) throw PdError.badRequest(`The request URI is not valid. $count cannot be applied to the segment '${property.name}' since $count can only follow a resource segment.`);
    notForOne(options, true);
    const row = await fetchOne(position, ctx);
    const value = row[property.name] ?? null;
    // A null has no raw value: WCF DS answers a `$value` of one with 404, not an empty body.
    if (target.value && value === null) throw PdError.notFound('$value');
    return { kind: 'property', set: position.set, property, value, raw: target.value };
  }
  if (target.value) throw PdError.badRequest('The $value segment can only follow a primitive property.');
  if (target.count) {
    if (position.single) throw PdError.badRequest("The request URI is not valid, the segment $count cannot be applied to a single resource.");
    const page = await ctx.store.query(ctx.siteId, {
      set: position.set, where: position.where, filter: options.filter, filterText: options.filterText,
      orderBy: [], top: 0, skip: 0, count: true,
    });
    return { kind: 'count', count: page.count ?? 0 };
  }

  const projection = project(position.set, options.select);
  const selectText = options.raw.get('$select');
  if (position.single) {
    notForOne(options, false);
    const row = await fetchOne(position, ctx, options);
    return { kind: 'entry', set: position.set, row, projection, selectText };
  }
  return readFeed(position, options, projection, selectText, ctx);
}

function startAt(step: PathStep, ctx: PdServiceContext): Position {
  const set = ctx.schema.find((s) => s.name === step.name);
  if (!set) throw PdError.notFound(step.name);
  const path = step.keys ? `${set.name}(${keyText(step.keys)})` : set.name;
  return { set, where: step.keys ? keyWhere(set, step.keys) : [], single: !!step.keys, path, segment: step.name };
}

/** Follows a navigation property from one entity: the target rows are those equal on every join pair. */
async function follow(from: Position, navigation: PdNavigation, step: PathStep, ctx: PdServiceContext): Promise<Position> {
  const set = ctx.schema.find((s) => s.name === navigation.target);
  if (!set) throw PdError.notFound(step.name);
  const source = await fetchOne(from, ctx);
  const where = navigation.on.map(([sourceProperty, targetProperty]) => ({ property: targetProperty, value: source[sourceProperty] ?? null }));
  if (step.keys && !navigation.many) throw PdError.badRequest(`The segment '${step.name}' refers to a single resource and cannot have a key.`);
  if (step.keys) where.push(...keyWhere(set, step.keys));
  const path = `${from.path}/${navigation.name}${step.keys ? `(${keyText(step.keys)})` : ''}`;
  return { set, where, single: !navigation.many || !!step.keys, path, segment: step.name };
}

/**
 * Paging and sorting options name rows of a collection: on one entity or a property WCF DS
 * refuses them rather than ignore them (and `$filter` on a property too).
 */
function notForOne(options: PdOptions, property: boolean): void {
  const named = ['$orderby', '$skip', '$top', '$skiptoken', '$inlinecount'].filter((o) => options.raw.get(o)?.trim());
  if (named.length) throw PdError.badRequest('Query options $orderby, $inlinecount, $skip and $top cannot be applied to the requested resource.');
  if (property && options.filter) throw PdError.badRequest('Query option $filter cannot be applied to the requested resource.');
}

/** The one row a single-entity position names (and `$filter` keeps, on an entity); 404 (WCF DS's message) when there is none. */
async function fetchOne(position: Position, ctx: PdServiceContext, options?: PdOptions): Promise<PdRow> {
  if (position.where.some((w) => w.value === null)) throw PdError.notFound(position.segment);
  const page = await ctx.store.query(ctx.siteId, {
    set: position.set, where: position.where, orderBy: keyOrder(position.set, []), top: 1, skip: 0,
    filter: options?.filter, filterText: options?.filterText,
  });
  const row = page.rows[0];
  if (!row) throw PdError.notFound(position.segment);
  return row;
}

/** `(guid'…')` or `(ProjectId=guid'…',TaskId=guid'…')` → equalities on the set's key, in key order. */
function keyWhere(set: PdEntitySet, keys: KeyPredicate[]): Position['where'] {
  const bad = () => PdError.badRequest(`Bad Request - Error in query syntax.`);
  if (keys.length !== set.key.length) throw bad();
  const named = keys.every((k) => k.name !== undefined);
  if (!named && keys.length !== 1) throw bad();
  return set.key.map((name, index) => {
    const key = named ? keys.find((k) => k.name === name) : keys[index];
    const property = set.properties.find((p) => p.name === name)!;
    if (!key) throw bad();
    // A key of the wrong type (`Projects(1)`, `TimeSet(datetime'2016-13-01')`) or null is a syntax error in WCF DS, not a 404.
    const value = literalValue(property, key.value);
    if (value === undefined || value === null) throw bad();
    return { property: name, value };
  });
}

function keyText(keys: KeyPredicate[]): string {
  return keys.map((k) => {
    const text = k.value.type === 'guid' ? `guid'${k.value.value}'`
      : k.value.type === 'datetime' ? `datetime'${k.value.value}'`
      : k.value.type === 'string' ? `'${k.value.value.replaceAll("'", "''")}'`
      : k.value.type === 'number' ? k.value.raw
      : k.value.type === 'boolean' ? String(k.value.value) : 'null';
    return k.name ? `${k.name}=${text}` : text;
  }).join(',');
}

/** `$select`: named properties and navigation links, in the set's order; none given means all properties and links. */
function project(set: PdEntitySet, select: string[] | undefined): Projection {
  if (!select || select.includes('*')) return { properties: set.properties, navigations: set.navigations };
  for (const name of select) {
    if (!set.properties.some((p) => p.name === name) && !set.navigations.some((n) => n.name === name)) throw noProperty(set, name);
  }
  return {
    properties: set.properties.filter((p) => select.includes(p.name)),
    navigations: set.navigations.filter((n) => select.includes(n.name)),
  };
}

const noProperty = (set: PdEntitySet, name: string) =>
  PdError.badRequest(`No property '${name}' exists in type '${NAMESPACE}.${set.entityType}' at position 0.`);

/** `$orderby` keys, then the key properties not already sorted on, so every page boundary is exact. */
function keyOrder(set: PdEntitySet, orderBy: PdOptions['orderBy']): PdSortKey[] {
  const sort: PdSortKey[] = orderBy.map((o) => {
    const name = o.path.join('/');
    if (o.path.length !== 1 || !set.properties.some((p) => p.name === name)) throw noProperty(set, name);
    return { property: name, descending: o.direction === 'desc' };
  });
  for (const key of set.key) if (!sort.some((s) => s.property === key)) sort.push({ property: key, descending: false });
  return sort;
}

async function readFeed(position: Position, options: PdOptions, projection: Projection, selectText: string | undefined, ctx: PdServiceContext): Promise<PdResult> {
  const { set } = position;
  const orderBy = keyOrder(set, options.orderBy);
  const pageSize = ctx.site.pageSizes[set.name] ?? (ctx.site.dates === 'onprem' ? onPremisesPageSize(set.name) ?? set.defaultPageSize : set.defaultPageSize);
  const top = options.top === undefined ? pageSize : Math.min(options.top, pageSize);
  const after = options.skipToken ? tokenValues(set, orderBy, options.skipToken) : undefined;
  const page: PdPage = await ctx.store.query(ctx.siteId, {
    set, where: position.where, filter: options.filter, filterText: options.filterText, orderBy,
    // The sort values of the last row make the next link's skip token, selected or not.
    select: [...new Set([...projection.properties.map((p) => p.name), ...orderBy.map((o) => o.property)])], top, skip: options.skip ?? 0, after, count: options.inlineCount,
  });
  const last = page.rows[page.rows.length - 1];
  const remaining = options.top === undefined ? undefined : options.top - page.rows.length;
  const more = page.hasMore && last !== undefined && (remaining === undefined || remaining > 0);
  return {
    kind: 'feed', set, rows: page.rows, projection, selectText, count: page.count, feedPath: position.path,
    nextLink: more ? nextLink(ctx.baseUrl, position.path, options, orderBy, set, last!, remaining) : undefined,
  };
}

/** The skip token's literals → the sort values of the row it continues after; 400 when they do not fit the sort. */
function tokenValues(set: PdEntitySet, orderBy: PdSortKey[], token: NonNullable<PdOptions['skipToken']>): PdValue[] {
  if (token.length !== orderBy.length) throw PdError.badRequest('The skip token value is not valid for the query: it does not match the sort order.');
  return orderBy.map((sort, index) => {
    const property = set.properties.find((p) => p.name === sort.property)!;
    const value = literalValue({ ...property, nullable: true }, token[index]!);
    if (value === undefined) throw PdError.badRequest('The skip token value is not valid for the query: it does not match the sort order.');
    return value;
  });
}

/** The same query from after `last`: `$skip` is used up, `$top` counts down, the other options stay. */
function nextLink(baseUrl: string, path: string, options: PdOptions, orderBy: PdSortKey[], set: PdEntitySet, last: PdRow, remaining: number | undefined): string {
  const params: string[] = [];
  for (const [name, value] of options.raw) {
    if (name === '$skip' || name === '$skiptoken' || name === '$top') continue;
    params.push(`${name}=${encodeURIComponent(value).replace(/%2C/g, ',').replace(/%27/g, "'")}`);
  }
  if (remaining !== undefined) params.push(`$top=${remaining}`);
  const token = orderBy.map((sort) => {
    const property = set.properties.find((p) => p.name === sort.property)!;
    return literalText(property.type, last[sort.property] ?? null);
  }).join(',');
  params.push(`$skiptoken=${encodeTokenForUrl(token)}`);
  return `${baseUrl}${encodeURI(path).replace(/%27/g, "'")}?${params.join('&')}`;
}
