// What each SharePoint field type is: its FieldTypeKind number, TypeAsString, the
// SP.Field* entity type, how its value is stored in a SQL column, and how a stored value
// appears on the wire. Adding a field type means adding one row here.

export type FieldKind =
  | 'Counter' | 'Text' | 'Note' | 'Number' | 'Currency' | 'Integer' | 'Boolean' | 'DateTime'
  | 'Choice' | 'MultiChoice' | 'URL' | 'User' | 'UserMulti' | 'Lookup' | 'LookupMulti' | 'Guid'
  | 'Computed' | 'ContentTypeId' | 'Attachments' | 'File' | 'Location' | 'Thumbnail' | 'Calculated';

/** The SQL type family of a column; the store maps it to each database's type. */
export type StorageType = 'text' | 'real' | 'int';

export interface FieldKindInfo {
  fieldTypeKind: number;
  typeAsString: string;
  /** The entity type of the field itself in `web/lists/…/fields`. */
  entityType: string;
  storage: StorageType;
  /** Values are arrays stored as JSON text. */
  multi: boolean;
  /** Points at an item: a User Information List row or a lookup list's item. */
  reference: 'user' | 'lookup' | null;
  /** Can appear in `$filter` / `$orderby`. */
  queryable: boolean;
}

const info = (
  fieldTypeKind: number, typeAsString: string, entityType: string, storage: StorageType,
  extra: Partial<Pick<FieldKindInfo, 'multi' | 'reference' | 'queryable'>> = {},
): FieldKindInfo => ({
  fieldTypeKind, typeAsString, entityType, storage,
  multi: extra.multi ?? false, reference: extra.reference ?? null, queryable: extra.queryable ?? true,
});

export const FIELD_KINDS: Record<FieldKind, FieldKindInfo> = {
  Integer: info(1, 'Integer', 'SP.Field', 'int'),
  Text: info(2, 'Text', 'SP.FieldText', 'text'),
  Note: info(3, 'Note', 'SP.FieldMultiLineText', 'text'),
  DateTime: info(4, 'DateTime', 'SP.FieldDateTime', 'text'),
  Counter: info(5, 'Counter', 'SP.Field', 'int'),
  Choice: info(6, 'Choice', 'SP.FieldChoice', 'text'),
  Lookup: info(7, 'Lookup', 'SP.FieldLookup', 'int', { reference: 'lookup' }),
  Boolean: info(8, 'Boolean', 'SP.Field', 'int'),
  Number: info(9, 'Number', 'SP.FieldNumber', 'real'),
  Currency: info(10, 'Currency', 'SP.FieldCurrency', 'real'),
  URL: info(11, 'URL', 'SP.FieldUrl', 'text', { queryable: false }),
  Computed: info(12, 'Computed', 'SP.FieldComputed', 'text', { queryable: false }),
  Guid: info(14, 'Guid', 'SP.FieldGuid', 'text'),
  MultiChoice: info(15, 'MultiChoice', 'SP.FieldMultiChoice', 'text', { multi: true, queryable: false }),
  Attachments: info(19, 'Attachments', 'SP.Field', 'int', { queryable: false }),
  User: info(20, 'User', 'SP.FieldUser', 'int', { reference: 'user' }),
  UserMulti: info(20, 'UserMulti', 'SP.FieldUser', 'text', { multi: true, reference: 'user', queryable: false }),
  LookupMulti: info(7, 'LookupMulti', 'SP.FieldLookup', 'text', { multi: true, reference: 'lookup', queryable: false }),
  ContentTypeId: info(25, 'ContentTypeId', 'SP.Field', 'text', { queryable: false }),
  File: info(18, 'File', 'SP.Field', 'text', { queryable: false }),
  // A location and an image column hold their value as SharePoint does: JSON text the client
  // writes and reads as a string (an address with coordinates; an image's file name and URL).
  Location: info(33, 'Location', 'SP.FieldLocation', 'text', { queryable: false }),
  Thumbnail: info(34, 'Thumbnail', 'SP.FieldThumbnail', 'text', { queryable: false }),
  // A calculated column's values are stored, filtered, sorted and sent as its output type's
  // (valueKind below); this row describes the field itself.
  Calculated: info(17, 'Calculated', 'SP.FieldCalculated', 'text'),
};

/**
 * The kind whose rules a field's values follow: a calculated column's output type, else the
 * field's own kind. Storage, filters, sorting and the wire read values through this.
 */
export function valueKind(field: { kind: FieldKind; options?: { outputType?: string | undefined } }): FieldKind {
  return field.kind === 'Calculated' ? (field.options?.outputType as FieldKind | undefined) ?? 'Text' : field.kind;
}

/** FieldTypeKind numbers a client may send when creating a field (`fields.add`). */
export function kindFromTypeKind(fieldTypeKind: number, allowMultiple: boolean): FieldKind | undefined {
  switch (fieldTypeKind) {
    case 1: return 'Integer';
    case 2: return 'Text';
    case 3: return 'Note';
    case 4: return 'DateTime';
    case 6: return 'Choice';
    case 7: return allowMultiple ? 'LookupMulti' : 'Lookup';
    case 8: return 'Boolean';
    case 9: return 'Number';
    case 10: return 'Currency';
    case 11: return 'URL';
    case 14: return 'Guid';
    case 15: return 'MultiChoice';
    case 17: return 'Calculated';
    case 20: return allowMultiple ? 'UserMulti' : 'User';
    case 33: return 'Location';
    case 34: return 'Thumbnail';
    default: return undefined;
  }
}

export function kindFromTypeName(name: string): FieldKind | undefined {
  const match = (Object.keys(FIELD_KINDS) as FieldKind[]).find((k) => k.toLowerCase() === name.toLowerCase());
  return match === 'Counter' || match === 'Computed' || match === 'Attachments' || match === 'ContentTypeId' || match === 'File'
    ? undefined : match;
}
