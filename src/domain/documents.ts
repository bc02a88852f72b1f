// The folder tree of a list or library: names of files and folders, and paths inside a list.
//
// A path here is relative to the list's root folder, its segments joined by '/', with no
// leading or trailing slash ('' is the root itself). Names keep the case they were given;
// they are compared case-insensitively, as SharePoint's file system does.

import { fail } from './errors.ts';
import type { Item, ItemPlace } from './model.ts';

/** Characters SharePoint Online refuses in a file or folder name. */
const INVALID_CHARACTERS = /["*:<>?/\\|\u0000-\u001f]/;
/** Names SharePoint Online refuses whatever their extension (`CON.txt` too), and `_vti_` anywhere. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;
/** SharePoint Online: a name of at most 255 characters, a decoded path of at most 400. */
export const MAX_NAME_LENGTH = 255;
export const MAX_PATH_LENGTH = 400;

/** Why `name` cannot name a file or folder, or undefined if it can. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'The name is empty.';
  if (name.length > MAX_NAME_LENGTH) return `The name is longer than ${MAX_NAME_LENGTH} characters.`;
  if (INVALID_CHARACTERS.test(name)) return 'The name contains a character that is not allowed: " * : < > ? / \\ |';
  if (name !== name.trim()) return 'The name begins or ends with a space.';
  if (name.startsWith('.') && /^\.+$/.test(name)) return 'The name is only dots.';
  if (name.endsWith('.')) return 'The name ends with a dot.';
  if (name.startsWith('~$')) return 'The name begins with ~$.';
  if (RESERVED.test(name) || /_vti_/i.test(name) || /^(\.lock|desktop\.ini)$/i.test(name)) return 'The name is reserved.';
  return undefined;
}

/** Throws SharePoint's invalid-name failure for a name it refuses. */
export function checkName(name: string): void {
  const problem = nameProblem(name);
  if (problem) throw fail.invalidFileName(name, problem);
}

/**
 * Throws SharePoint's path-too-long failure for a decoded server-relative URL longer than
 * SharePoint Online allows (counted in UTF-16 units, as SharePoint counts).
 */
export function checkPathLength(serverRelativeUrl: string): void {
  if (serverRelativeUrl.length > MAX_PATH_LENGTH) throw fail.pathTooLong(serverRelativeUrl, MAX_PATH_LENGTH);
}

/** The segments of a path inside a list ('' → []). Empty segments (`a//b`, a trailing '/') are dropped. */
export const segments = (path: string): string[] => path.split('/').filter((s) => s.length > 0);

export const joinPath = (dir: string, name: string): string => (dir ? `${dir}/${name}` : name);

/** An item's path inside its list (`Reports/q1.txt`). */
export const placePath = (place: ItemPlace): string => joinPath(place.dir, place.name ?? '');

/** The server-relative URL of `path` inside the list at `listUrl` ('' is the list's root folder). */
export const urlInList = (listUrl: string, path: string): string => (path ? `${listUrl}/${path}` : listUrl);

/** A server-relative URL relative to its web (`Shared Documents/a.txt`), as SharePoint's messages and version URLs name files. */
export const webRelativeUrl = (webUrl: string, serverRelativeUrl: string): string =>
  serverRelativeUrl.slice(webUrl.replace(/\/$/, '').length + 1);

/**
 * A percent-encoded URL or path decoded. A '%' that starts no escape (a name may hold one) stays
 * as it is, and so does a run of escapes that is no UTF-8: the rest is decoded all the same.
 */
export function decodeUrlText(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try { return decodeURIComponent(run); } catch { return run; }
  });
}

/** The folder holding `path` and the last segment's name ('' and '' for the root). */
export function splitPath(path: string): { dir: string; name: string } {
  const parts = segments(path);
  return { dir: parts.slice(0, -1).join('/'), name: parts.at(-1) ?? '' };
}

/** Whether `path` is `ancestor` or below it, case-insensitively. */
export function isWithin(path: string, ancestor: string): boolean {
  const p = path.toLowerCase();
  const a = ancestor.toLowerCase();
  return a === '' || p === a || p.startsWith(`${a}/`);
}

/** The extension SharePoint shows as File_x0020_Type: what follows the last dot, as given ('' if none). */
export function fileType(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

/** A file's etag, as SharePoint writes it for the file (not its list item): `"{GUID},version"`. */
export const fileEtag = (item: Item): string => `"{${item.guid.toUpperCase()}},${item.version}"`;

/** An item attachment's, in the same form: in SharePoint it is a file too (docs/compatibility.md). */
export const attachmentEtag = (a: { uniqueId: string; version: number }): string => `"{${a.uniqueId.toUpperCase()}},${a.version}"`;
