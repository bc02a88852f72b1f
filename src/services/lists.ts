// Creating a list is more than a row: its item table, the built-in fields and the
// template's fields all come into being together, in one transaction.

import type { List, Web } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { builtInFields, entityTypeNameForUrl, newListLocation, templateFields, USER_INFO_LIST_TEMPLATE } from '../domain/templates.ts';
import { urlPrefix } from '../domain/names.ts';

export interface ListInput {
  title: string;
  description: string;
  baseTemplate: number;
  hidden?: boolean;
  enableVersioning?: boolean;
  /** Root folder relative to the web; derived from the title when absent. */
  relativeUrl?: string;
}

export async function createListWithFields(store: Store, web: Web, input: ListInput, now: string): Promise<List> {
  return store.transaction(async (tx) => {
    const location = newListLocation(input.title, input.baseTemplate);
    const wanted = input.relativeUrl ?? location.relativeUrl;
    let relativeUrl = wanted;
    // Two lists may not share a URL: SharePoint numbers the newcomer (Tasks, Tasks1, …).
    const base = urlPrefix(web.serverRelativeUrl);
    for (let n = 1; await tx.lists.byUrl(web.id, `${base}/${relativeUrl}`); n++) relativeUrl = `${wanted}${n}`;
    // The entity type name comes from the root folder's URL ("Shared Documents" → Shared_x0020_Documents), not the title.
    const entityTypeName = input.baseTemplate === USER_INFO_LIST_TEMPLATE && relativeUrl === location.relativeUrl
      ? location.entityTypeName : entityTypeNameForUrl(relativeUrl);
    const list = await tx.lists.create(web, {
      title: input.title, description: input.description, baseTemplate: input.baseTemplate, relativeUrl, entityTypeName,
      hidden: input.hidden ?? false, enableVersioning: input.enableVersioning ?? true,
    }, now);
    for (const field of [...builtInFields(), ...templateFields(input.baseTemplate)]) await tx.fields.add(list, field);
    return (await tx.lists.byRowId(list.rowId))!;
  });
}
