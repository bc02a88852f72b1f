// The built-in site columns a site collection's root web lists in `web/fields` beside its own:
// the fields every list has (Title, ID, Created, …, with the ids lists carry) and a few of
// SharePoint's base columns clients look up by name. They are part of the product, not rows:
// read only, and never deleted.

import type { SiteColumn } from './model.ts';
import { builtInFields } from './templates.ts';

/** SharePoint's group for its contact and calendar columns. */
const CONTACT_GROUP = 'Core Contact and Calendar Columns';

const LIST_SYSTEM_COLUMNS = builtInFields();

/** Base columns beyond the list system fields: internal name, title, id (SharePoint's, INFERRED from captured schemas). */
const BASE_COLUMNS: ReadonlyArray<{ internalName: string; title: string; id: string; group: string }> = [
  { internalName: 'OtherAddressCountry', title: 'Other Address Country/Region', id: '3c0e9e00-8fcc-479f-9d8d-3447cda34c5b', group: CONTACT_GROUP },
];

/** The root web's built-in site columns, in SharePoint's order (the list system fields first). */
export function builtInSiteColumns(rootWebId: string): SiteColumn[] {
  return [
    ...LIST_SYSTEM_COLUMNS.map((f): SiteColumn => ({
      rowId: 0, id: f.builtIn!.id, webId: rootWebId, internalName: f.internalName, title: f.title, kind: f.kind,
      required: f.required, indexed: false, hidden: f.hidden, readOnly: f.readOnly ?? false, builtIn: true, options: {},
    })),
    ...BASE_COLUMNS.map((c): SiteColumn => ({
      rowId: 0, id: c.id, webId: rootWebId, internalName: c.internalName, title: c.title, kind: 'Text',
      required: false, indexed: false, hidden: false, readOnly: false, builtIn: true, options: { group: c.group },
    })),
  ];
}
