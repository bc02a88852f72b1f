// List views: what a view is (a named page of a list with its columns, its CAML query, its
// row limit) and the default view a new list starts with. SharePoint keeps a view as a page
// of the list (`AllItems.aspx`, `Forms/AllItems.aspx` in a library); spemu keeps its record.

import type { List } from './model.ts';
import { urlPrefix } from './names.ts';

export interface View {
  id: string;
  listRowId: number;
  title: string;
  /** The view's page, server-relative: `/sites/dev/Lists/Tasks/AllItems.aspx`. */
  serverRelativeUrl: string;
  defaultView: boolean;
  hidden: boolean;
  personal: boolean;
  rowLimit: number;
  paged: boolean;
  /** SP.ViewScope: 0 default (this folder), 1 Recursive, 2 RecursiveAll, 3 FilesOnly. */
  scope: number;
  /** The CAML inside `<Query>` (`<Where>…</Where><OrderBy>…</OrderBy>`); '' for none. */
  query: string;
  /** Internal names of the view's columns, in order. */
  fields: string[];
}

export type NewView = Omit<View, 'id' | 'listRowId'>;
export type ViewPatch = Partial<Pick<View, 'title' | 'defaultView' | 'hidden' | 'rowLimit' | 'paged' | 'scope' | 'query' | 'fields'>>;

/** SharePoint's largest RowLimit for a view. */
export const MAX_ROW_LIMIT = 5000;

/** Columns a view may show that are no field of the list: SharePoint's computed link columns. */
export const COMPUTED_VIEW_FIELDS = ['LinkTitle', 'LinkTitleNoMenu', 'LinkFilename', 'LinkFilenameNoMenu', 'DocIcon', 'Edit', 'SelectTitle'];

/** The view a new list starts with: All Documents in a library, All Items elsewhere (30 rows, paged). */
export function defaultViewOf(list: Pick<List, 'baseType' | 'serverRelativeUrl'>): NewView {
  const library = list.baseType === 1;
  return {
    title: library ? 'All Documents' : 'All Items',
    serverRelativeUrl: `${urlPrefix(list.serverRelativeUrl)}/${library ? 'Forms/' : ''}AllItems.aspx`,
    defaultView: true, hidden: false, personal: false, rowLimit: 30, paged: true, scope: 0,
    query: library ? '<OrderBy><FieldRef Name="FileLeafRef" /></OrderBy>' : '<OrderBy><FieldRef Name="ID" /></OrderBy>',
    fields: library ? ['DocIcon', 'LinkFilename', 'Modified', 'Editor'] : ['LinkTitle'],
  };
}

/** A new view's page URL: its title without characters a URL cannot hold, numbered if taken. */
export function viewPageUrl(list: Pick<List, 'baseType' | 'serverRelativeUrl'>, title: string, taken: (url: string) => boolean): string {
  const base = `${urlPrefix(list.serverRelativeUrl)}/${list.baseType === 1 ? 'Forms/' : ''}`;
  const stem = title.replace(/[^A-Za-z0-9_-]/g, '') || 'View';
  let url = `${base}${stem}.aspx`;
  for (let n = 1; taken(url.toLowerCase()); n++) url = `${base}${stem}${n}.aspx`;
  return url;
}
