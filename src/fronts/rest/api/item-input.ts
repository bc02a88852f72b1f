// Maps an item body (`{"Title":…,"AssignedToId":5}`) onto the list's fields and converts
// each value to its stored form, refusing what SharePoint refuses.

import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import type { Field, List, StoredValue } from '../../../domain/model.ts';
import { listItemEntityTypeFullName, odataPropertyName } from '../../../domain/names.ts';
import { toStoredValue, ValueError, ValueTypeError } from '../../../domain/values.ts';
import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';
import { readEntityBody } from './body.ts';

/** System properties a client may send back unchanged; SharePoint does not let REST set them. */
const IGNORED = new Set(['ID', 'Id', 'GUID', 'Created', 'Modified', 'AuthorId', 'EditorId', 'AuthorStringId',
  'EditorStringId', 'ContentTypeId', 'OData__UIVersionString', 'Attachments', 'FileSystemObjectType',
  'ServerRedirectedEmbedUri', 'ServerRedirectedEmbedUrl', 'ComplianceAssetId', 'owshiddenversion']);

/** Wire name → (field, how the value arrives). */
function inputNames(fields: Field[]): Map<string, { field: Field; asString: boolean }> {
  const names = new Map<string, { field: Field; asString: boolean }>();
  for (const field of fields) {
    if (field.readOnly) continue;
    const name = odataPropertyName(field.internalName);
    const info = FIELD_KINDS[field.kind];
    if (info.reference) {
      names.set(`${name}Id`, { field, asString: false });
      if (info.reference === 'user') names.set(`${name}StringId`, { field, asString: true });
    } else {
      names.set(name, { field, asString: false });
    }
  }
  return names;
}

/** Reads and converts the body of an item create or update. */
export function readItemValues(ctx: ApiContext, list: List, fields: Field[]): Record<string, StoredValue> {
  const typeName = listItemEntityTypeFullName(list.entityTypeName);
  const props = readEntityBody(ctx, typeName);
  const names = inputNames(fields);
  const values: Record<string, StoredValue> = {};
  for (const [key, raw] of Object.entries(props)) {
    const target = names.get(key);
    if (!target) {
      if (IGNORED.has(key)) continue;
      throw errors.unknownBodyProperty(key, typeName);
    }
    try {
      values[target.field.internalName] = toStoredValue(target.field, raw);
    } catch (e) {
      if (e instanceof ValueTypeError) throw errors.invalidPropertyValue(e.expectedType);
      if (e instanceof ValueError) throw errors.validationFailed(e.message);
      throw e;
    }
  }
  return values;
}
