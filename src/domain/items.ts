// A field's value on an item, in stored form. Most fields' values are in `item.values`; the
// system fields are columns of the item itself (its id, dates, author and editor, etag,
// version), so each reader asks here rather than knowing which is which.

import type { Field, Item, StoredValue } from './model.ts';
import { versionLabelOf } from './versions.ts';

/** The system fields an item carries as its own columns, by internal name. */
const COLUMNS: Record<string, (item: Item) => StoredValue> = {
  ID: (i) => i.id,
  GUID: (i) => i.guid,
  ContentTypeId: (i) => i.contentTypeId,
  Created: (i) => i.created,
  Modified: (i) => i.modified,
  Author: (i) => i.authorId,
  Editor: (i) => i.editorId,
  owshiddenversion: (i) => i.version,
  _UIVersionString: (i) => versionLabelOf(i),
  // spemu keeps no attachments on list items (yet): the flag is stored false.
  Attachments: () => 0,
};

/** `field`'s value on `item`, stored form; null when it has none. */
export function storedValue(field: Field, item: Item): StoredValue {
  const column = COLUMNS[field.internalName];
  return column ? column(item) : item.values[field.internalName] ?? null;
}
