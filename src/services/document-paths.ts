// Finding files and folders by URL, for every front that addresses them: `/_api`'s
// GetFileByServerRelativePath, a file's own URL, `/_layouts/15/download.aspx`. Read only: it
// takes the store's read side, so a front may call it without a service.

import { decodeUrlText, placePath, segments, splitPath } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Item, List, Site, Web } from '../domain/model.ts';
import { isVersionId, versionIdOf } from '../domain/versions.ts';
import type { StoreReader } from '../store/store.ts';

type Reader = Pick<StoreReader, 'lists' | 'fields' | 'documents'>;

/**
 * The list holding a server-relative URL (or a URL relative to the web, or an absolute one)
 * and the path inside it. The list whose URL is the longest prefix at a segment boundary wins.
 * A path outside the web is SharePoint's ArgumentException; no list there is undefined.
 */
export async function locate(store: Reader, web: Web, url: string): Promise<{ list: List; path: string } | undefined> {
  let path = /^https?:\/\//i.test(url) ? decodeUrlText(new URL(url).pathname) : url;
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

/**
 * Site collections sit at the root or two segments down (`/sites/<name>`, `/teams/<name>`:
 * SharePoint's managed paths, and all a tenant file may declare). Looking deeper would only
 * fill the site cache with misses for whatever long path a client sends.
 */
const MAX_SITE_DEPTH = 2;

/** Control characters (NUL among them, which PostgreSQL refuses in text) are in no name: such a URL names nothing. */
const NO_NAME = /[\u0000-\u001f]/;

/** The site collection whose URL is the longest prefix of a (decoded) server-relative path, at a segment boundary. */
export async function siteAt(store: Pick<StoreReader, 'sites'>, path: string): Promise<Site | undefined> {
  if (NO_NAME.test(path)) return undefined;
  const parts = segments(path);
  for (let depth = Math.min(MAX_SITE_DEPTH, parts.length); depth >= 0; depth--) {
    const site = await store.sites.byUrl(`/${parts.slice(0, depth).join('/')}`);
    if (site) return site;
  }
  return undefined;
}

/**
 * The web at a (decoded) server-relative path and its site collection: the web whose URL is
 * the path itself, or (`deepest`) the deepest web whose URL is a prefix of it at a segment
 * boundary, as a file's URL names the web that holds it. `/_api` asks for the web itself: a
 * path below a web that is no web names nothing there (404), as a mistyped site URL does.
 */
export async function webAt(store: Pick<StoreReader, 'sites'>, path: string, options: { deepest?: boolean } = {}): Promise<{ site: Site; web: Web } | undefined> {
  const site = await siteAt(store, path);
  if (!site) return undefined;
  const wanted = `/${segments(path).join('/')}`.toLowerCase();
  let best: Web | undefined;
  for (const web of await store.sites.websOf(site.id)) {
    const url = `/${segments(web.serverRelativeUrl).join('/')}`.toLowerCase();
    if (url === wanted) return { site, web };
    if (options.deepest && (url === '/' || wanted.startsWith(`${url}/`)) && (!best || url.length > best.serverRelativeUrl.length)) best = web;
  }
  return best ? { site, web: best } : undefined;
}

/** `_vti_history/<version id>/<path from the web>`: where SharePoint serves a file's past version (SP.FileVersion's Url). */
const HISTORY = /^_vti_history\/(\d+)\/(.+)$/i;

/**
 * The file a URL names (server-relative, relative to the web, or absolute), or one of its
 * past versions when the URL is a `_vti_history` one; undefined for a folder or nothing.
 */
export async function fileAt(store: Reader & Pick<StoreReader, 'versions'>, web: Web, url: string): Promise<{ list: List; item: Item; version?: Item } | undefined> {
  if (NO_NAME.test(url)) return undefined;
  const history = HISTORY.exec(pathFromWeb(web, url));
  const found = await documentAt(store, web, history ? history[2]! : url);
  if (!found?.item || found.item.place.folder) return undefined;
  if (!history) return { list: found.list, item: found.item };
  const id = Number(history[1]);
  const version = !isVersionId(id) ? undefined
    : (await store.versions.of(found.list, found.item.id)).find((v) => versionIdOf(v) === id && v.file !== undefined);
  return version ? { list: found.list, item: found.item, version } : undefined;
}

/** A URL as a path from the web ('' when it is outside the web). */
function pathFromWeb(web: Web, url: string): string {
  const path = url.replace(/^https?:\/\/[^/]*/i, '');
  const parts = segments(path);
  if (!path.startsWith('/')) return parts.join('/');
  const webParts = segments(web.serverRelativeUrl);
  const inWeb = webParts.every((p, i) => parts[i]?.toLowerCase() === p.toLowerCase());
  return inWeb ? parts.slice(webParts.length).join('/') : '';
}
