// A list read through CAML: `getitems` (PnPjs getItemsByCAMLQuery: items as the items collection
// answers them, `$select`/`$expand` honoured), `RenderListDataAsStream` (SPFx views and PnP's
// controls: rows of shown values, paged with NextHref) and the legacy `renderListData`. All
// three run the query through caml-query.ts, the compiler and threshold `$filter` uses.

import { findFieldByNameOrTitle } from '../../../../domain/fields.ts';
import { FIELD_KINDS } from '../../../../domain/field-kinds.ts';
import { storedValue } from '../../../../domain/items.ts';
import type { Field, Item, List } from '../../../../domain/model.ts';
import { visibleOnly } from '../item-visibility.ts';
import { COMPUTED_VIEW_FIELDS } from '../../../../domain/views.ts';
import { listItemEntitySetName } from '../../../../domain/names.ts';
import type { Expression } from '../../../../query/ast.ts';
import type { SortKey } from '../../../../store/store.ts';
import { errors } from '../../../../wire/errors.ts';
import { camlItemQuery, type CamlItemQuery } from '../caml-query.ts';
import type { ApiContext } from '../context.ts';
import { planItemProjection } from '../item-projection.ts';
import { itemsPayload } from '../item-writer.ts';
import { listDataRows, permMask, type Row } from '../list-data-rows.ts';
import { ok, type Outcome } from '../outcome.ts';
import { storedFromToken } from '../paging.ts';
import type { MethodDef, Resource } from '../resource.ts';
import { stringArgument } from './shared.ts';

type ListResource = { kind: 'list'; list: List };

/** SP.RenderListDataOptions bits spemu answers. */
const CONTEXT_INFO = 1;
const LIST_DATA = 2;
const LIST_SCHEMA = 4;

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
const optionalString = (value: unknown, name: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw errors.invalidPropertyValue(`Edm.String (${name})`);
  return value;
};

/** A keyset position from SharePoint's paging text (`Paged=TRUE&p_ID=5&p_Title=…`). */
function positionFromPaging(paging: URLSearchParams, keys: SortKey[]): { id: number; values: Item['values'][string][] } | undefined {
  const id = [...paging].find(([k]) => k.toLowerCase() === 'p_id')?.[1];
  if (id === undefined) return undefined;
  if (!/^\d+$/.test(id)) throw errors.camlMalformed();
  const values = keys.map((k) => {
    const raw = paging.get(`p_${k.field.internalName}`);
    return raw === null || raw === '' ? null : storedFromToken(k.field, raw);
  });
  return { id: Number(id), values };
}

/** The rows a query reads: one page of at most `top`, after `paging`. */
async function readPage(list: List, fields: Field[], q: CamlItemQuery, top: number, paging: URLSearchParams, ctx: ApiContext, load?: Field[]) {
  return ctx.store.items.query(list, fields, {
    filter: await visibleOnly(q.filter, list, ctx), filterText: 'CAML', orderBy: q.orderBy, top,
    after: positionFromPaging(paging, q.orderBy), backwards: /^true$/i.test(paging.get('PagedPrev') ?? ''),
    lookups: q.lookups, load: load && [...new Set([...load, ...q.orderBy.map((k) => k.field)])],
  });
}

const rowLimit = (q: CamlItemQuery, fallback: number, ctx: ApiContext): number =>
  Math.max(1, Math.min(q.view.rowLimit || fallback, ctx.settings.maxPageSize));

/** `list/getitems` with `{query: {ViewXml, FolderServerRelativeUrl, ListItemCollectionPosition}}`. */
const getItems: MethodDef<Resource> = {
  kind: 'action', permission: 'ViewListItems',
  async invoke(r, _args, ctx) {
    const { list } = r as ListResource;
    const query = record(record(ctx.body).query);
    const fields = await ctx.store.fields.of(list);
    const q = await camlItemQuery(list, fields, optionalString(query.ViewXml, 'ViewXml') ?? '', {
      folder: optionalString(query.FolderServerRelativeUrl, 'FolderServerRelativeUrl'),
    }, ctx);
    const plan = await planItemProjection(list, fields, ctx);
    const paging = new URLSearchParams(optionalString(record(query.ListItemCollectionPosition).PagingInfo, 'PagingInfo') ?? '');
    const page = await readPage(list, fields, q, rowLimit(q, ctx.settings.maxPageSize, ctx), paging, ctx, plan.load);
    return ok(await itemsPayload(plan, page.items, listItemEntitySetName(list.entityTypeName), undefined, ctx));
  },
};

/** The default view's query as a `<View>`, for a request that sends no ViewXml. */
async function defaultViewXml(list: List, ctx: ApiContext): Promise<{ xml: string; viewId: string }> {
  const view = (await ctx.store.views.of(list)).find((v) => v.defaultView);
  if (!view) return { xml: '', viewId: '00000000-0000-0000-0000-000000000000' };
  const fields = view.fields.map((f) => `<FieldRef Name="${f}"/>`).join('');
  const scope = ['Default', 'Recursive', 'RecursiveAll', 'FilesOnly'][view.scope] ?? 'Default';
  return { xml: `<View Scope="${scope}"><Query>${view.query}</Query><ViewFields>${fields}</ViewFields><RowLimit Paged="TRUE">${view.rowLimit}</RowLimit></View>`, viewId: view.id };
}

/** The columns a view shows: its ViewFields (computed link columns as the field they show), Title when it has none. */
function viewColumns(names: string[], fields: Field[]): Field[] {
  const SHOWS: Record<string, string> = { linktitle: 'Title', linktitlenomenu: 'Title', selecttitle: 'Title', linkfilename: 'FileLeafRef', linkfilenamenomenu: 'FileLeafRef' };
  const wanted = names.length ? names : ['Title'];
  const out = new Set<Field>();
  for (const name of wanted) {
    if (COMPUTED_VIEW_FIELDS.includes(name) && !SHOWS[name.toLowerCase()]) continue;
    const field = findFieldByNameOrTitle(fields, SHOWS[name.toLowerCase()] ?? name);
    if (field) out.add(field);
  }
  return [...out];
}

interface ListData {
  Row: Row[];
  FirstRow: number;
  FolderPermissions: string;
  LastRow: number;
  RowLimit: number;
  FilterLink: string;
  ForceNoHierarchy: string;
  HierarchyHasIndention: string;
  NextHref?: string;
  PrevHref?: string;
}

interface RenderRequest {
  viewXml?: string | undefined;
  folder?: string | undefined;
  /** `Paged=TRUE&p_ID=…` (the parameters' Paging or the query string's). */
  paging: URLSearchParams;
  /** The query string's view-page overrides (FilterField1/FilterValue1, SortField/SortDir). */
  overrides: URLSearchParams;
}

/** The query string's FilterFieldN/FilterValueN pairs: each an equality, all of them and-ed. */
function filterOverrides(overrides: URLSearchParams, fields: Field[]): Expression | undefined {
  let out: Expression | undefined;
  for (let n = 1; overrides.has(`FilterField${n}`); n++) {
    const name = overrides.get(`FilterField${n}`)!;
    const field = fields.find((f) => f.internalName === name);
    if (!field) throw errors.camlFieldTypes();
    const value = overrides.get(`FilterValue${n}`) ?? '';
    const reference = FIELD_KINDS[field.kind].reference;
    const path = reference ? [name, reference === 'user' ? 'Title' : field.options.lookupField ?? 'Title'] : [name];
    const term: Expression = value === ''
      ? { kind: 'compare', op: 'eq', left: { kind: 'member', path: [name] }, right: { kind: 'literal', type: 'null' } }
      : { kind: 'compare', op: 'eq', left: { kind: 'member', path }, right: { kind: 'literal', type: 'string', value } };
    out = out ? { kind: 'logical', op: 'and', left: out, right: term } : term;
  }
  return out;
}

async function renderListData(list: List, request: RenderRequest, ctx: ApiContext): Promise<ListData> {
  const fields = await ctx.store.fields.of(list);
  const fallback = await defaultViewXml(list, ctx);
  const viewXml = request.viewXml ?? fallback.xml;
  const overrides = request.overrides;
  const sortField = overrides.get('SortField');
  const q = await camlItemQuery(list, fields, viewXml, {
    folder: overrides.get('RootFolder') ?? request.folder,
    extra: filterOverrides(overrides, fields),
    sort: sortField ? { name: sortField, descending: /^desc/i.test(overrides.get('SortDir') ?? '') } : undefined,
  }, ctx);
  const limit = rowLimit(q, 30, ctx);
  const page = await readPage(list, fields, q, limit, request.paging, ctx);
  const firstRow = Math.max(1, Number(request.paging.get('PageFirstRow') ?? overrides.get('PageFirstRow') ?? 1) || 1);
  const columns = viewColumns(q.view.viewFields, fields);
  const data: ListData = {
    Row: await listDataRows(list, fields, columns, page.items, ctx),
    FirstRow: firstRow, FolderPermissions: permMask(ctx), LastRow: firstRow + page.items.length - 1, RowLimit: limit,
    FilterLink: '?', ForceNoHierarchy: '1', HierarchyHasIndention: '',
  };
  const last = page.items[page.items.length - 1];
  if (page.hasMore && last) {
    const keys = q.orderBy.map((k) => `&p_${k.field.internalName}=${encodeURIComponent(String(storedValue(k.field, last) ?? ''))}`).join('');
    data.NextHref = `?Paged=TRUE${keys}&p_ID=${last.id}&PageFirstRow=${data.LastRow + 1}&View=${fallback.viewId}`;
  }
  if (firstRow > 1 && page.items[0]) {
    data.PrevHref = `?Paged=TRUE&PagedPrev=TRUE&p_ID=${page.items[0].id}&PageFirstRow=${Math.max(1, firstRow - limit)}&View=${fallback.viewId}`;
  }
  return data;
}

/** A JSON answer as RenderListDataAsStream sends it: plain JSON, whatever OData dialect was asked for. */
const json = (value: unknown): Outcome => ({
  kind: 'bytes', status: 200, body: Buffer.from(JSON.stringify(value), 'utf8'), contentType: 'application/json; charset=utf-8',
});

/** `list/RenderListDataAsStream` with `{parameters: {ViewXml, FolderServerRelativeUrl, RenderOptions, Paging}}`. */
const renderListDataAsStream: MethodDef<Resource> = {
  kind: 'action', permission: 'ViewListItems',
  async invoke(r, _args, ctx) {
    const { list } = r as ListResource;
    const parameters = record(record(ctx.body).parameters);
    const override = record(record(ctx.body).overrideParameters);
    const overrides = new URLSearchParams(ctx.requestUrl.search);
    const paging = new URLSearchParams(optionalString(parameters.Paging, 'Paging') ?? '');
    for (const name of ['Paged', 'p_ID', 'PagedPrev', 'PageFirstRow']) if (overrides.has(name) && !paging.has(name)) paging.set(name, overrides.get(name)!);
    // The query string's sort values (`p_Title`) travel with p_ID.
    for (const [k, v] of overrides) if (/^p_/i.test(k) && !paging.has(k)) paging.set(k, v);
    const options = typeof parameters.RenderOptions === 'number' ? parameters.RenderOptions : LIST_DATA;
    const data = await renderListData(list, {
      viewXml: optionalString(override.ViewXml, 'ViewXml') ?? optionalString(parameters.OverrideViewXml, 'OverrideViewXml') ?? optionalString(parameters.ViewXml, 'ViewXml'),
      folder: optionalString(parameters.FolderServerRelativeUrl, 'FolderServerRelativeUrl'), paging, overrides,
    }, ctx);
    if (options === LIST_DATA || options === 0) return json(data);
    // More than the list data: SharePoint nests it under ListData, beside the parts asked for.
    const out: Record<string, unknown> = {};
    if (options & CONTEXT_INFO) {
      Object.assign(out, { listTitle: list.title, listName: `{${list.id.toUpperCase()}}`, listUrlDir: list.serverRelativeUrl, listBaseType: list.baseType, listTemplate: String(list.baseTemplate) });
    }
    if (options & LIST_DATA) out.ListData = data;
    if (options & LIST_SCHEMA) {
      const fields = await ctx.store.fields.of(list);
      out.ListSchema = { Field: fields.filter((f) => !f.hidden).map((f) => ({ Name: f.internalName, FieldType: FIELD_KINDS[f.kind].typeAsString, DisplayName: f.title, ID: f.id, Type: FIELD_KINDS[f.kind].typeAsString })) };
    }
    return json(out);
  },
};

/** The legacy `renderlistdata(@viewXml)`: the same list data as a JSON string. */
const renderListDataLegacy: MethodDef<Resource> = {
  kind: 'action', permission: 'ViewListItems',
  async invoke(r, args, ctx) {
    const { list } = r as ListResource;
    const viewXml = stringArgument(args, 'viewXml');
    const data = await renderListData(list, { viewXml, paging: new URLSearchParams(), overrides: new URLSearchParams() }, ctx);
    return ok({ kind: 'primitive', methodName: 'RenderListData', edmType: 'Edm.String', value: JSON.stringify(data) });
  },
};

export const listCamlMethods: Record<string, MethodDef<Resource>> = {
  getitems: getItems,
  renderlistdataasstream: renderListDataAsStream,
  renderlistdata: renderListDataLegacy,
};
