// `lists(…)/getListItemChangesSinceToken` (PnPjs posts `{query: SP.ChangeLogItemQuery}` and
// reads the answer as text): Lists.asmx's rowset XML over REST. Without a ChangeToken it is
// the list's items (Query, ViewFields and RowLimit applied, as a view); with one, the items
// added or changed since (their current values) and the ids deleted since, from the change
// log; `LastChangeToken` is where the next call starts (MS-LISTSWS 3.1.4.22).

import { ChangeType } from '../../../../domain/change-tokens.ts';
import { storedValue } from '../../../../domain/items.ts';
import type { Field, Item, List } from '../../../../domain/model.ts';
import type { Expression } from '../../../../query/ast.ts';
import { currentChangeToken, readChanges, tokenOfChange } from '../../../../services/changes.ts';
import { DEFAULT_CHANGE_RETENTION_DAYS } from '../../../../services/changes.ts';
import { errors } from '../../../../wire/errors.ts';
import { camlItemQuery } from '../caml-query.ts';
import { itemVisibility } from './changes.ts';
import type { ApiContext } from '../context.ts';
import { visibleOnly } from '../item-visibility.ts';
import type { Outcome } from '../outcome.ts';
import type { MethodDef, Resource } from '../resource.ts';

type ListResource = { kind: 'list'; list: List };

const idsIn = (ids: number[]): Expression => ids.map((id): Expression => ({
  kind: 'compare', op: 'eq', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: id, raw: String(id) },
})).reduce((left, right) => ({ kind: 'logical', op: 'or', left, right }));
const and = (a: Expression | undefined, b: Expression): Expression => (a ? { kind: 'logical', op: 'and', left: a, right: b } : b);

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
const optionalText = (value: unknown, name: string): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw errors.invalidPropertyValue(`Edm.String (${name})`);
  return value;
};
const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Rows one answer holds when RowLimit is not given (inference: docs/compatibility.md). */
const DEFAULT_ROW_LIMIT = 100;
/** Changes read from the log per call; more make `MoreChanges="TRUE"`. */
const CHANGES_PER_CALL = 1000;

/** A stored value as Lists.asmx writes an `ows_` attribute: dates `YYYY-MM-DD HH:MM:SS`, Booleans 1/0. */
function owsValue(field: Field, value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (field.kind === 'DateTime' && typeof value === 'string') return value.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
  if (field.kind === 'Boolean') return value ? '1' : '0';
  return String(value);
}

function rowXml(item: Item, fields: Field[], list: List): string {
  const attrs: string[] = [];
  for (const field of fields) {
    const text = owsValue(field, storedValue(field, item));
    if (text !== undefined) attrs.push(`ows_${field.internalName}="${xml(text)}"`);
  }
  attrs.push(`ows_UniqueId="${item.id};#{${item.guid}}"`, `ows_FSObjType="${item.id};#${item.place.folder ? 1 : 0}"`,
    `ows_owshiddenversion="${item.version}"`);
  if (item.place.name !== null) {
    const path = item.place.dir ? `${item.place.dir}/${item.place.name}` : item.place.name;
    attrs.push(`ows_FileRef="${item.id};#${xml(`${list.serverRelativeUrl}/${path}`.replace(/^\//, ''))}"`);
  }
  return `<z:row ${attrs.join(' ')} />`;
}

export const getListItemChangesSinceToken: MethodDef<Resource> = {
  kind: 'action', permission: 'ViewListItems',
  async invoke(r, _args, ctx): Promise<Outcome> {
    const { list } = r as ListResource;
    const query = record(record(ctx.body).query);
    const token = optionalText(query.ChangeToken, 'ChangeToken');
    const rowLimitText = query.RowLimit;
    const rowLimit = rowLimitText === undefined || rowLimitText === null || rowLimitText === '' ? DEFAULT_ROW_LIMIT : Number(rowLimitText);
    if (!Number.isInteger(rowLimit) || rowLimit < 1) throw errors.invalidPropertyValue('Edm.Int32 (RowLimit)');
    const fields = await ctx.store.fields.of(list);
    const viewXml = `<View>${optionalText(query.Query, 'Query') ?? ''}${optionalText(query.ViewFields, 'ViewFields') ?? ''}</View>`;
    const q = await camlItemQuery(list, fields, viewXml, {}, ctx);
    const shown = q.view.viewFields.length
      ? q.view.viewFields.map((name) => fields.find((f) => f.internalName === name)).filter((f): f is Field => f !== undefined)
      : fields.filter((f) => !f.hidden || ['ID', 'Modified', 'Created', 'Author', 'Editor'].includes(f.internalName));
    const withId = shown.some((f) => f.internalName === 'ID') ? shown : [fields.find((f) => f.internalName === 'ID')!, ...shown];

    let items: Item[];
    let ids: string[] = [];
    let last: string;
    let more = false;
    if (!token) {
      const page = await ctx.store.items.query(list, fields, {
        filter: await visibleOnly(q.filter, list, ctx), filterText: 'CAML', orderBy: q.orderBy, top: Math.min(rowLimit, ctx.settings.maxPageSize), lookups: q.lookups,
      });
      items = page.items;
      more = page.hasMore;
      last = await currentChangeToken(ctx.store.changes, ctx.site.id, 'list', list.id, new Date());
    } else {
      const changes = await readChanges(ctx.store.changes, { siteId: ctx.site.id, scope: { kind: 'list', listId: list.id } }, {
        flags: { Item: true, Add: true, Update: true, DeleteObject: true, Rename: true, Restore: true, Move: true, SystemUpdate: true },
        start: token, fetchLimit: CHANGES_PER_CALL,
      }, { retentionDays: ctx.settings.changeRetentionDays ?? DEFAULT_CHANGE_RETENTION_DAYS, now: new Date() }, await itemVisibility(ctx));
      const deleted = new Map<number, string>();
      const changed = new Set<number>();
      for (const c of changes) {
        if (c.itemId === undefined) continue;
        if (c.type === ChangeType.DeleteObject || c.type === ChangeType.MoveAway) { deleted.set(c.itemId, c.uniqueId ?? ''); changed.delete(c.itemId); } else { changed.add(c.itemId); deleted.delete(c.itemId); }
      }
      ids = [...deleted].map(([id, uniqueId]) => `<Id ChangeType="Delete" UniqueId="{${xml(uniqueId)}}">${id}</Id>`);
      // The items changed since, as they are now, through the query's own filter and the
      // caller's view permissions (as every other read): `ID in (…)` joins the CAML filter.
      const changedIds = [...changed].slice(0, ctx.settings.maxPageSize);
      items = changedIds.length === 0 ? [] : (await ctx.store.items.query(list, fields, {
        filter: await visibleOnly(and(q.filter, idsIn(changedIds)), list, ctx), filterText: 'CAML', orderBy: [], top: changedIds.length, lookups: q.lookups,
      })).items;
      more = changes.length === CHANGES_PER_CALL;
      last = changes.length ? tokenOfChange(changes[changes.length - 1]!, 'list', list.id)
        : await currentChangeToken(ctx.store.changes, ctx.site.id, 'list', list.id, new Date());
    }
    const body = `<listitems xmlns:s="uuid:BDC6E3F0-6DA3-11d1-A2A3-00AA00C14882" xmlns:dt="uuid:C2F41010-65B3-11d1-A29F-00AA00C14882" `
      + `xmlns:rs="urn:schemas-microsoft-com:rowset" xmlns:z="#RowsetSchema" MinTimeBetweenSyncs="0" RecommendedTimeBetweenSyncs="180" `
      + `MaxBulkDocumentSyncSize="500" EffectivePermMask="FullMask">`
      + `<Changes LastChangeToken="${xml(last)}"${more ? ' MoreChanges="TRUE"' : ''}>${ids.join('')}</Changes>`
      + `<rs:data ItemCount="${items.length}">${items.map((i) => rowXml(i, withId, list)).join('')}</rs:data></listitems>`;
    return { kind: 'bytes', status: 200, body: Buffer.from(body, 'utf8'), contentType: 'text/xml; charset=utf-8' };
  },
};
