// Finding files and folders by URL, for every front that addresses them: `/_api`'s
// GetFileByServerRelativePath, a file's own URL, `/_layouts/15/download.aspx`. Read only: it
// takes the store's read side, so a front may call it without a service.

import { placePath, segments, splitPath } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Item, List, Web } from '../domain/model.ts';
import type { StoreReader } from '../store/store.ts';

type Reader = Pick<StoreReader, 'lists' | 'fields' | 'documents'>;

/**
 * The list holding a server-relative URL (or a URL relative to the web, or an absolute one)
 * and the path inside it. The list whose URL is the longest prefix at a segment boundary wins.
 * A path outside the web is SharePoint's ArgumentException; no list there is undefined.
 */
export async function locate(store: Reader, web: Web, url: string): Promise<{ list: List; path: string } | undefined> {
  let path = /^https?:\/\//i.test(url) ? safeDecode(new URL(url).pathname) : url;
  if (!path.startsWith('/')) path = `${web.serverRelativeUrl.replace(/\/$/, '')}/${path}`;
  const wanted = `/${segments(path).join('/')}`.toLowerCase();
  const webUrl = `/${segments(web.serverRelativeUrl).join('/')}`.toLowerCase();
  if (webUrl !== '/' && wanted !== webUrl && !wanted.startsWith(`${webUrl}/`)) throw fail.outsideWeb();
  let best: List | undefined;
  for (const list of await store.lists.inWeb(web.id)) {
    const root = list.serverRelativeUrl.toLowerCase();
    if ((wanted === root || wanted.startsWith(`${root}/`)) && (!best || root.length > best.serverRelativeUrl.length)) best = list;
  }
  if (!best) return undefined;
  return { list: best, path: segments(path).slice(segments(best.serverRelativeUrl).length).join('/') };
}

/** What a URL names: a list's root folder (no item), a folder or a file; undefined if nothing. */
export async function documentAt(store: Reader, web: Web, url: string): Promise<{ list: List; path: string; item?: Item } | undefined> {
  const found = await locate(store, web, url);
  if (!found) return undefined;
  if (!found.path) return found;
  const { dir, name } = splitPath(found.path);
  const item = await store.documents.at(found.list, await store.fields.of(found.list), dir, name);
  return item ? { list: found.list, path: placePath(item.place), item } : undefined;
}

/** The file or folder of the web whose UniqueId is `uniqueId` (any GUID form), or undefined. */
export async function documentById(store: Reader, web: Web, uniqueId: string): Promise<{ list: List; item: Item } | undefined> {
  const id = uniqueId.replace(/[{}]/g, '').toLowerCase();
  for (const list of await store.lists.inWeb(web.id)) {
    const item = await store.documents.byUniqueId(list, await store.fields.of(list), id);
    if (item) return { list, item };
  }
  return undefined;
}

/** An absolute URL's path is percent-encoded; a name may hold a '%' that is no escape. */
function safeDecode(text: string): string {
  try { return decodeURIComponent(text); } catch { return text; }
}
