// A web's navigation: the quick launch (left) and the top navigation bar, each an ordered
// tree of nodes with a title and a URL. A new team site's quick launch has Home, Documents,
// Pages and Site contents.

import { urlPrefix } from './names.ts';

export type NavigationMenu = 'quicklaunch' | 'topnavigationbar';

export interface NavigationNode {
  id: number;
  webId: string;
  menu: NavigationMenu;
  parentId: number | null;
  title: string;
  url: string;
  visible: boolean;
  /** A URL outside the site (`https://…`), as SharePoint marks IsExternal. */
  external: boolean;
}

/** The quick launch a new web starts with. */
export function defaultQuickLaunch(webUrl: string): Array<{ title: string; url: string }> {
  const base = urlPrefix(webUrl);
  return [
    { title: 'Home', url: base || '/' },
    { title: 'Documents', url: `${base}/Shared Documents/Forms/AllItems.aspx` },
    { title: 'Pages', url: `${base}/SitePages` },
    { title: 'Site contents', url: `${base}/_layouts/15/viewlsts.aspx` },
  ];
}

export const isExternalUrl = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url);
