// The wire properties of a list item: which names a client sees for each field, in
// SharePoint's order, and the value each carries (reference §1.2, §8.1).

import { FIELD_KINDS, valueKind } from '../../../domain/field-kinds.ts';
import { fileType } from '../../../domain/documents.ts';
import { versionLabelOf } from '../../../domain/versions.ts';
import type { Field, Item, List, StoredValue } from '../../../domain/model.ts';
import { odataPropertyName } from '../../../domain/names.ts';
import { storedArray } from '../../../domain/values.ts';
import { PAGE_FIELD } from '../../../domain/site-pages.ts';
import { EdmDouble, type Value } from '../../../wire/values.ts';

/** `origin` is the request's (`https://host:port`), for the few properties that are absolute URLs. */
export type WireGetter = (item: Item, origin?: string) => Value;
/** `field` is the field whose stored value the property reads (none for system columns). */
export interface WireProp { name: string; get: WireGetter; field?: Field }

const ints = (v: StoredValue): Value => ({ kind: 'collection', elementType: 'Edm.Int32', items: storedArray<number>(v) });
const intStrings = (v: StoredValue): Value => ({ kind: 'collection', elementType: 'Edm.String', items: storedArray<number>(v).map(String) });

/** A stored value as it goes on the wire for a field's own property. */
export function wireValue(field: Field, v: StoredValue): Value {
  if (v === null) {
    if (field.kind === 'UserMulti' || field.kind === 'LookupMulti') return ints(null);
    if (field.kind === 'MultiChoice') return { kind: 'collection', elementType: 'Edm.String', items: [] };
    return null;
  }
  switch (valueKind(field)) {
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
        ? [{ name: `${name}Id`, get: (i) => ints(stored(i)), field }, { name: `${name}StringId`, get: (i) => intStrings(stored(i)), field }]
        : [{ name: `${name}Id`, get: (i) => wireValue(field, stored(i)), field },
           { name: `${name}StringId`, get: (i) => (stored(i) === null ? null : String(stored(i))), field }];
    case 'lookup':
      return [{ name: `${name}Id`, get: (i) => wireValue(field, stored(i)), field }];
    default:
      return [{ name, get: (i) => wireValue(field, stored(i)), field }];
  }
}

/**
 * The property tables depend only on a list's fields, and the store hands out the same
 * fields array until they change: build each table once per array.
 */
const defaultCache = new WeakMap<Field[], WireProp[]>();
const selectableCache = new WeakMap<Field[], Map<string, WireProp>>();

/** Every item's properties in SharePoint's default order (no `$select`). */
export function defaultWireProps(fields: Field[]): WireProp[] {
  let props = defaultCache.get(fields);
  if (!props) defaultCache.set(fields, props = buildDefaultWireProps(fields));
  return props;
}

function buildDefaultWireProps(fields: Field[]): WireProp[] {
  const custom = fields.filter((f) => !f.builtIn).flatMap(fieldWireProps);
  return [
    { name: 'FileSystemObjectType', get: (i) => (i.place.folder ? 1 : 0) },
    { name: 'Id', get: (i) => i.id },
    { name: 'ServerRedirectedEmbedUri', get: () => null },
    { name: 'ServerRedirectedEmbedUrl', get: () => '' },
    { name: 'ContentTypeId', get: (i) => i.contentTypeId },
    { name: 'Title', get: (i) => (i.values.Title ?? null) as Value, field: fields.find((f) => f.internalName === 'Title') },
    { name: 'ComplianceAssetId', get: () => null },
    ...custom,
    { name: 'ID', get: (i) => i.id },
    { name: 'Modified', get: (i) => i.modified },
    { name: 'Created', get: (i) => i.created },
    { name: 'AuthorId', get: (i) => i.authorId },
    { name: 'EditorId', get: (i) => i.editorId },
    { name: 'OData__UIVersionString', get: (i) => versionLabelOf(i) },
    { name: 'Attachments', get: (i) => (i.attachments ?? 0) > 0 },
    { name: 'GUID', get: (i) => i.guid },
  ];
}

/** A file's or folder's name; an ordinary item's is `<id>_.000`. */
const leafRef = (i: Item): string => i.place.name ?? `${i.id}_.000`;
/** The server-relative URL of the folder the item is in. */
const dirRef = (list: List, i: Item): string => (i.place.dir ? `${list.serverRelativeUrl}/${i.place.dir}` : list.serverRelativeUrl);

/**
 * A server-relative URL percent-encoded segment by segment, as SharePoint writes EncodedAbsUrl
 * (a space is %20, `#` %23, `%` %25, other characters beyond ASCII letters and digits as UTF-8 escapes).
 */
const encodedPath = (url: string): string => url.split('/').map(encodeURIComponent).join('/');

/** Properties that exist but appear only when named in `$select`. */
function hiddenUntilSelected(list: List): WireProp[] {
  return [
    { name: 'FileRef', get: (i) => `${dirRef(list, i)}/${leafRef(i)}` },
    { name: 'EncodedAbsUrl', get: (i, origin = '') => `${origin}${encodedPath(`${dirRef(list, i)}/${leafRef(i)}`)}` },
    { name: 'FileLeafRef', get: (i) => leafRef(i) },
    { name: 'FileDirRef', get: (i) => dirRef(list, i) },
    { name: 'FSObjType', get: (i) => (i.place.folder ? '1' : '0') },
    { name: 'File_x0020_Type', get: (i) => (i.place.folder || i.place.name === null ? null : fileType(i.place.name) || null) },
    { name: 'UniqueId', get: (i) => i.guid },
    { name: 'File_x0020_Size', get: (i) => (i.file ? String(i.file.size) : null) },
    { name: 'SMTotalFileStreamSize', get: (i) => (i.file ? String(i.file.size) : null) },
    { name: 'CheckoutUserId', get: (i) => i.file?.checkedOutBy ?? null },
    { name: 'owshiddenversion', get: (i) => i.version },
    { name: 'AuthorStringId', get: (i) => String(i.authorId) },
    { name: 'EditorStringId', get: (i) => String(i.editorId) },
  ];
}

/** Everything `$select` may name directly on an item of this list, by exact name. */
export function selectableWireProps(list: List, fields: Field[]): Map<string, WireProp> {
  let cached = selectableCache.get(fields);
  if (!cached) selectableCache.set(fields, cached = buildSelectableWireProps(list, fields));
  return cached;
}

function buildSelectableWireProps(list: List, fields: Field[]): Map<string, WireProp> {
  const out = new Map<string, WireProp>();
  for (const p of defaultWireProps(fields)) out.set(p.name, p);
  for (const p of hiddenUntilSelected(list)) out.set(p.name, p);
  out.set('CommentsDisabled', commentsDisabledProp(list, fields));
  return out;
}

/**
 * CommentsDisabled: a page's own setting (Site Pages' `_CommentFlags`, SetCommentsDisabled),
 * else the list's (DisableCommenting). Shown only when selected.
 */
function commentsDisabledProp(list: List, fields: Field[]): WireProp {
  const flags = fields.find((f) => f.internalName === PAGE_FIELD.commentFlags);
  if (!flags) return { name: 'CommentsDisabled', get: () => list.disableCommenting };
  return { name: 'CommentsDisabled', get: (i) => list.disableCommenting || i.values[PAGE_FIELD.commentFlags] === '1', field: flags };
}
