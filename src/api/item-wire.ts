// The wire properties of a list item: which names a client sees for each field, in
// SharePoint's order, and the value each carries (reference §1.2, §8.1).

import { FIELD_KINDS } from '../domain/field-kinds.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import { odataPropertyName } from '../domain/names.ts';
import { storedArray } from '../domain/values.ts';
import { EdmDouble, type Value } from '../serialize/values.ts';

export type WireGetter = (item: Item) => Value;
export interface WireProp { name: string; get: WireGetter }

const ints = (v: StoredValue): Value => ({ kind: 'collection', elementType: 'Edm.Int32', items: storedArray<number>(v) });
const intStrings = (v: StoredValue): Value => ({ kind: 'collection', elementType: 'Edm.String', items: storedArray<number>(v).map(String) });

/** A stored value as it goes on the wire for a field's own property. */
export function wireValue(field: Field, v: StoredValue): Value {
  if (v === null) {
    if (field.kind === 'UserMulti' || field.kind === 'LookupMulti') return ints(null);
    if (field.kind === 'MultiChoice') return { kind: 'collection', elementType: 'Edm.String', items: [] };
    return null;
  }
  switch (field.kind) {
    case 'Number': case 'Currency': return new EdmDouble(Number(v));
    case 'Integer': case 'Counter': case 'User': case 'Lookup': return Number(v);
    case 'Boolean': return Number(v) === 1;
    case 'MultiChoice': return { kind: 'collection', elementType: 'Edm.String', items: storedArray<string>(v) };
    case 'UserMulti': case 'LookupMulti': return ints(v);
    case 'URL': {
      const url = JSON.parse(String(v)) as { Description: string; Url: string };
      return { kind: 'complex', type: 'SP.FieldUrlValue', props: [['Description', url.Description], ['Url', url.Url]] };
    }
    default: return String(v);
  }
}

/** The wire properties of one custom field (User → `XId` and `XStringId`, Lookup → `XId`, …). */
export function fieldWireProps(field: Field): WireProp[] {
  const name = odataPropertyName(field.internalName);
  const stored = (item: Item) => item.values[field.internalName] ?? null;
  switch (FIELD_KINDS[field.kind].reference) {
    case 'user':
      return field.kind === 'UserMulti'
        ? [{ name: `${name}Id`, get: (i) => ints(stored(i)) }, { name: `${name}StringId`, get: (i) => intStrings(stored(i)) }]
        : [{ name: `${name}Id`, get: (i) => wireValue(field, stored(i)) },
           { name: `${name}StringId`, get: (i) => (stored(i) === null ? null : String(stored(i))) }];
    case 'lookup':
      return [{ name: `${name}Id`, get: (i) => wireValue(field, stored(i)) }];
    default:
      return [{ name, get: (i) => wireValue(field, stored(i)) }];
  }
}

/** Every item's properties in SharePoint's default order (no `$select`). */
export function defaultWireProps(list: List, fields: Field[]): WireProp[] {
  const custom = fields.filter((f) => !f.builtIn).flatMap(fieldWireProps);
  return [
    { name: 'FileSystemObjectType', get: () => 0 },
    { name: 'Id', get: (i) => i.id },
    { name: 'ServerRedirectedEmbedUri', get: () => null },
    { name: 'ServerRedirectedEmbedUrl', get: () => '' },
    { name: 'ContentTypeId', get: (i) => i.contentTypeId },
    { name: 'Title', get: (i) => (i.values.Title ?? null) as Value },
    { name: 'ComplianceAssetId', get: () => null },
    ...custom,
    { name: 'ID', get: (i) => i.id },
    { name: 'Modified', get: (i) => i.modified },
    { name: 'Created', get: (i) => i.created },
    { name: 'AuthorId', get: (i) => i.authorId },
    { name: 'EditorId', get: (i) => i.editorId },
    { name: 'OData__UIVersionString', get: (i) => `${i.uiVersion}.0` },
    { name: 'Attachments', get: () => false },
    { name: 'GUID', get: (i) => i.guid },
  ];
}

/** Properties that exist but appear only when named in `$select`. */
function hiddenUntilSelected(list: List): WireProp[] {
  return [
    { name: 'FileRef', get: (i) => `${list.serverRelativeUrl}/${i.id}_.000` },
    { name: 'FileLeafRef', get: (i) => `${i.id}_.000` },
    { name: 'FileDirRef', get: () => list.serverRelativeUrl },
    { name: 'owshiddenversion', get: (i) => i.version },
    { name: 'AuthorStringId', get: (i) => String(i.authorId) },
    { name: 'EditorStringId', get: (i) => String(i.editorId) },
  ];
}

/** Everything `$select` may name directly on an item of this list, by exact name. */
export function selectableWireProps(list: List, fields: Field[]): Map<string, WireProp> {
  const out = new Map<string, WireProp>();
  for (const p of defaultWireProps(list, fields)) out.set(p.name, p);
  for (const p of hiddenUntilSelected(list)) out.set(p.name, p);
  return out;
}
