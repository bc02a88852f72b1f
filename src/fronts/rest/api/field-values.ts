// FieldValuesAsText / FieldValuesAsHtml / FieldValuesForEdit: every field of an item as the
// text SharePoint shows for it: display names for people and lookups, en-US dates and
// numbers (spemu's sites use UTC and the en-US locale), Yes/No for booleans.

import { valueKind } from '../../../domain/field-kinds.ts';
import { storedValue } from '../../../domain/items.ts';
import type { Field, Item, List, StoredValue } from '../../../domain/model.ts';
import { storedArray } from '../../../domain/values.ts';
import type { Entity } from '../../../wire/values.ts';
import type { ApiContext } from './context.ts';
import { referenceNames, type ReferenceName } from './reference-names.ts';
import { encodeUnderscores } from '../../../domain/names.ts';

export type FieldValuesForm = 'text' | 'html' | 'edit';


/** SharePoint encodes every `_` in these keys (`OData__x005f_UIVersionString`, `My_x005f_x0020_x005f_Field`). */
function propertyName(internalName: string): string {
  const encoded = encodeUnderscores(internalName);
  return internalName.startsWith('_') ? `OData_${encoded}` : encoded;
}

const dateTime = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const dateOnly = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' });
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 15 });
const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function fieldText(field: Field, value: StoredValue, names: Map<number, ReferenceName> | undefined): string {
  if (value === null || value === '') return '';
  switch (valueKind(field)) {
    case 'Boolean': case 'Attachments': return Number(value) === 1 ? 'Yes' : 'No';
    case 'DateTime': return (field.options.dateOnly ? dateOnly : dateTime).format(new Date(String(value))).replace(',', '');
    case 'Number': case 'Integer': case 'Counter': return number.format(Number(value));
    case 'Currency': return currency.format(Number(value));
    case 'MultiChoice': return storedArray<string>(value).join('; ');
    case 'URL': { const u = JSON.parse(String(value)) as { Url: string; Description: string }; return `${u.Url}, ${u.Description}`; }
    case 'User': case 'Lookup': return names?.get(Number(value))?.value ?? '';
    case 'UserMulti': case 'LookupMulti': return storedArray<number>(value).map((id) => names?.get(id)?.value ?? '').join('; ');
    default: return String(value);
  }
}

export async function fieldValuesEntity(list: List, fields: Field[], item: Item, form: FieldValuesForm, link: string, ctx: ApiContext): Promise<Entity> {
  const names = await referenceNames(list, fields, [item], ctx);
  const props: Array<[string, string]> = fields.map((f) => {
    const value = fieldText(f, storedValue(f, item), names.get(f.internalName));
    return [propertyName(f.internalName), form === 'html' ? escapeHtml(value) : value];
  });
  return { type: 'SP.FieldStringValues', id: `${ctx.apiUrl}${link}`, editLink: link, props };
}
