// The rows RenderListDataAsStream and renderListData answer: every value a string as a list
// view shows it (dates in en-US with their ISO form under `Name.`, Booleans Yes/No with
// `Name.value`), people and lookups as the arrays of objects SharePoint's client-side
// rendering reads, and the columns every row has (ID, PermMask, FSObjType, FileRef, …).

import { FIELD_KINDS, valueKind } from '../../../domain/field-kinds.ts';
import { storedValue } from '../../../domain/items.ts';
import type { Field, Item, List } from '../../../domain/model.ts';
import { permissionsOfRole } from '../../../domain/permissions.ts';
import { storedArray } from '../../../domain/values.ts';
import type { ApiContext } from './context.ts';
import { fieldText } from './field-values.ts';
import { referenceNames, type ReferenceName } from './reference-names.ts';

export type Row = Record<string, unknown>;

/** The caller's permission mask as SharePoint writes it in a row: `0x` and the 64 bits in hex. */
export function permMask(ctx: ApiContext): string {
  const { high, low } = permissionsOfRole(ctx.principal.role);
  return high ? `0x${(high >>> 0).toString(16)}${(low >>> 0).toString(16).padStart(8, '0')}` : `0x${(low >>> 0).toString(16)}`;
}

const leafRef = (i: Item): string => i.place.name ?? `${i.id}_.000`;
const dirRef = (list: List, i: Item): string => (i.place.dir ? `${list.serverRelativeUrl}/${i.place.dir}` : list.serverRelativeUrl);

/** The rows of `items`, with the values of `columns` (fields of the list) beside the fixed ones. */
export async function listDataRows(list: List, fields: Field[], columns: Field[], items: Item[], ctx: ApiContext): Promise<Row[]> {
  const names = await referenceNames(list, columns, items, ctx);
  const mask = permMask(ctx);
  return items.map((item) => {
    const fileRef = `${dirRef(list, item)}/${leafRef(item)}`;
    const row: Row = {
      ID: String(item.id), PermMask: mask, FSObjType: item.place.folder ? '1' : '0', ContentTypeId: item.contentTypeId,
      FileRef: fileRef, 'FileRef.urlencode': encodeURIComponent(fileRef), 'FileRef.urlencodeasurl': encodeURI(fileRef),
      FileLeafRef: leafRef(item), FileDirRef: dirRef(list, item), UniqueId: `{${item.guid}}`.toUpperCase(),
      owshiddenversion: String(item.version),
    };
    for (const field of columns) Object.assign(row, cells(field, item, names.get(field.internalName)));
    return row;
  });
}

/** One field's cells: its shown value and, for some kinds, the forms beside it. */
function cells(field: Field, item: Item, names: Map<number, ReferenceName> | undefined): Row {
  const name = field.internalName;
  const value = storedValue(field, item);
  const shown = fieldText(field, value, names);
  switch (valueKind(field)) {
    case 'DateTime': return { [name]: shown, [`${name}.`]: value === null ? '' : String(value) };
    case 'Boolean': return { [name]: shown, [`${name}.value`]: value === null ? '' : String(Number(value)) };
    case 'Number': case 'Currency': return { [name]: shown, [`${name}.`]: value === null ? '' : String(value) };
    case 'User': case 'UserMulti':
      return { [name]: ids(field, value).map((id) => ({
        id: String(id), title: names?.get(id)?.value ?? '', email: names?.get(id)?.email ?? '', sip: names?.get(id)?.email ?? '', picture: '',
      })) };
    case 'Lookup': case 'LookupMulti':
      return { [name]: ids(field, value).map((id) => ({ lookupId: id, lookupValue: names?.get(id)?.value ?? '', isSecretFieldValue: false })) };
    case 'MultiChoice': return { [name]: storedArray<string>(value) };
    default: return { [name]: shown };
  }
}

const ids = (field: Field, value: ReturnType<typeof storedValue>): number[] =>
  FIELD_KINDS[field.kind].multi ? storedArray<number>(value) : value === null ? [] : [Number(value)];
