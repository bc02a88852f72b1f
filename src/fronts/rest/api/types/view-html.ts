// A view's `renderAsHtml`: its rows as an HTML table, as SharePoint renders a view for pages
// that cannot run its client-side rendering. The view's columns (computed link columns shown
// as the field they link), its order and its row limit; every value is the text
// FieldValuesAsHtml shows, escaped. The view's query runs as any CAML query does
// (caml-query.ts): its Where, its OrderBy and its folder scope, in the database.

import type { Field, List } from '../../../../domain/model.ts';
import type { View } from '../../../../domain/views.ts';
import { findFieldByNameOrTitle } from '../../../../domain/fields.ts';
import { camlItemQuery, viewXmlOf } from '../caml-query.ts';
import type { ApiContext } from '../context.ts';
import { visibleOnly } from '../item-visibility.ts';
import { fieldValuesEntity } from '../field-values.ts';

/** The field a computed column shows. */
const SHOWS: Record<string, string> = {
  linktitle: 'Title', linktitlenomenu: 'Title', linkfilename: 'FileLeafRef', linkfilenamenomenu: 'FileLeafRef', docicon: 'File_x0020_Type',
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function renderViewHtml(list: List, view: View, ctx: ApiContext): Promise<string> {
  const fields = await ctx.store.fields.of(list);
  const columns = view.fields
    .map((name) => findFieldByNameOrTitle(fields, SHOWS[name.toLowerCase()] ?? name))
    .filter((f): f is Field => f !== undefined);
  // The view's query (its Where, its OrderBy, its scope) through the compiler `$filter` uses.
  const q = await camlItemQuery(list, fields, viewXmlOf(view.query, view.scope), {}, ctx);
  const page = await ctx.store.items.query(list, fields, { filter: await visibleOnly(q.filter, list, ctx), filterText: 'CAML', orderBy: q.orderBy, top: view.rowLimit, lookups: q.lookups });
  const head = columns.map((f) => `<th>${escapeHtml(f.title)}</th>`).join('');
  const rows: string[] = [];
  for (const item of page.items) {
    const values = await fieldValuesEntity(list, fields, item, 'html', '', ctx);
    const cell = (f: Field) => {
      const key = f.internalName.replace(/_/g, '_x005f_');
      const found = values.props.find(([k]) => k === key || k === `OData_${key}`);
      return `<td>${found ? String(found[1]) : ''}</td>`;
    };
    rows.push(`<tr>${columns.map(cell).join('')}</tr>`);
  }
  return `<table summary="${escapeHtml(list.title)}" class="ms-listviewtable"><tr>${head}</tr>${rows.join('')}</table>`;
}
