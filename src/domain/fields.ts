// Finding a list's field by the names clients use for it.

import { FIELD_KINDS } from './field-kinds.ts';
import type { Field, FieldDefinition } from './model.ts';
import { internalNameFromTitle, odataPropertyName } from './names.ts';
import { fail } from './errors.ts';
import type { NewField } from './model.ts';

/**
 * Resolves an item property name as used in `$filter`/`$orderby` (`Title`, `AuthorId`,
 * `ID`, `Id`) to a field. Names are case-sensitive, as in SharePoint.
 */
export function findField(fields: Field[], name: string): { field: Field; idSuffix: boolean } | undefined {
  if (name === 'Id') name = 'ID';
  const internal = name.startsWith('OData__') ? name.slice(5) : name;
  const direct = fields.find((f) => f.internalName === internal);
  if (direct) return { field: direct, idSuffix: false };
  if (internal.endsWith('Id')) {
    const base = internal.slice(0, -2);
    const ref = fields.find((f) => f.internalName === base && FIELD_KINDS[f.kind].reference);
    if (ref) return { field: ref, idSuffix: true };
  }
  return undefined;
}

/** The field whose OData property name (`Title`, `OData__UIVersionString`) is `name`, exactly. */
export function fieldByPropertyName(fields: Field[], name: string): Field | undefined {
  return fields.find((f) => odataPropertyName(f.internalName) === name);
}

/** Finds a field by internal name, then by display title (`getbyinternalnameortitle`), ignoring case. */
export function findFieldByNameOrTitle<F extends FieldDefinition>(fields: F[], name: string): F | undefined {
  const lower = name.toLowerCase();
  return fields.find((f) => f.internalName.toLowerCase() === lower) ?? fields.find((f) => f.title.toLowerCase() === lower);
}

/**
 * `adddependentlookupfield(displayName, primarylookupfieldid, showfield)`: a read-only lookup
 * of the primary's list showing `showField` of the item the primary points at. Its internal
 * name comes from the display name (SharePoint's own `Name` encoding); it is multi-valued when
 * the primary is.
 */
export function dependentLookupDefinition(primary: FieldDefinition | undefined, displayName: string, showField: string): NewField {
  if (!displayName.trim()) throw fail.badArgument('The field title must not be empty.');
  if (!primary || FIELD_KINDS[primary.kind].reference !== 'lookup' || !primary.options.lookupListId || primary.options.primaryFieldId) {
    throw fail.badArgument('The primary lookup field is not a lookup field of this collection.');
  }
  if (!showField.trim()) throw fail.badArgument('showField must not be empty.');
  return {
    internalName: internalNameFromTitle(displayName), title: displayName, kind: primary.kind,
    required: false, indexed: false, hidden: false, readOnly: true,
    options: { lookupListId: primary.options.lookupListId, lookupField: showField, primaryFieldId: primary.id },
  };
}

/** A dependent lookup: it shows another field of the item its primary lookup points at. */
export const isDependentLookup = (field: Pick<FieldDefinition, 'options'>): boolean => field.options.primaryFieldId !== undefined;
