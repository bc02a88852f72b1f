// The stored form of an item kept apart from its list's table: a past version
// (item_versions.data) and a recycled item (recycle_bin.data). It is a format of its own,
// numbered, and written field by field, so that a change to the in-memory Item record never
// changes what is on disk, and rows written by any earlier spemu still read.
//
//   format 3: format 2 and "minorVersion" (0 for a major version; format 1 and 2 rows read as 0)
//   format 2: format 1 and "place": { "folder", "name", "dir" }, and for a file
//             "file": { "blobId", "size", "checkInComment" } (its content as of that version)
//   format 1: { "format": 1, "id", "guid", "contentTypeId", "created", "modified",
//               "authorId", "editorId", "version", "uiVersion", "values": { internal name: stored value } }
//             (read as an item at the root of its list, not a folder, with no file)
//   recycled: { "format": n, "item": <format n>, "versions": [<format n>, … newest first] }
//   before format 1 (spemu ≤ 0.1, no "format"): the Item record as JSON; recycled items the
//   same with an optional "versions" array inside.

import type { Item, ItemPlace, StoredValue } from '../../domain/model.ts';

export const SNAPSHOT_FORMAT = 3;

interface ItemSnapshot {
  format: 3;
  id: number;
  guid: string;
  contentTypeId: string;
  created: string;
  modified: string;
  authorId: number;
  editorId: number;
  version: number;
  uiVersion: number;
  minorVersion: number;
  values: Record<string, StoredValue>;
  place: ItemPlace;
  file?: { blobId: string; size: number; checkInComment: string };
}

function toSnapshot(item: Item): ItemSnapshot {
  return {
    format: 3, id: item.id, guid: item.guid, contentTypeId: item.contentTypeId, created: item.created,
    modified: item.modified, authorId: item.authorId, editorId: item.editorId, version: item.version,
    uiVersion: item.uiVersion, minorVersion: item.minorVersion, values: { ...item.values },
    place: { folder: item.place.folder, name: item.place.name, dir: item.place.dir },
    ...(item.file ? { file: { blobId: item.file.blobId, size: item.file.size, checkInComment: item.file.checkInComment } } : {}),
  };
}

const ROOT_PLACE: ItemPlace = { folder: false, name: null, dir: '' };

/** The legacy record and formats 1 to 3 carry these names; any other format is refused, not guessed. */
function fromSnapshot(data: any): Item {
  if (data.format !== undefined && data.format !== 1 && data.format !== 2 && data.format !== 3) throw new Error(`unknown item snapshot format ${String(data.format)}`);
  const place = data.place ?? ROOT_PLACE;
  return {
    id: Number(data.id), guid: String(data.guid), contentTypeId: String(data.contentTypeId), created: String(data.created),
    modified: String(data.modified), authorId: Number(data.authorId), editorId: Number(data.editorId),
    version: Number(data.version), uiVersion: Number(data.uiVersion), minorVersion: Number(data.minorVersion ?? 0), values: { ...(data.values ?? {}) },
    place: { folder: place.folder === true, name: place.name == null ? null : String(place.name), dir: String(place.dir ?? '') },
    ...(data.file ? { file: { blobId: String(data.file.blobId), size: Number(data.file.size), checkedOutBy: null, checkInComment: String(data.file.checkInComment ?? '') } } : {}),
  };
}

export const encodeItemSnapshot = (item: Item): string => JSON.stringify(toSnapshot(item));
export const decodeItemSnapshot = (text: string): Item => fromSnapshot(JSON.parse(text));

/** A recycled item and its past versions (newest first). */
export function encodeRecycled(item: Item, versions: Item[]): string {
  return JSON.stringify({ format: SNAPSHOT_FORMAT, item: toSnapshot(item), versions: versions.map(toSnapshot) });
}

export function decodeRecycled(text: string): { item: Item; versions: Item[] } {
  const data = JSON.parse(text);
  const versions: any[] = Array.isArray(data.versions) ? data.versions : [];
  // Format 1 nests the item; the legacy record is the item itself.
  const item = data.format === undefined ? fromSnapshot(data) : fromSnapshot({ format: data.format, ...data.item });
  return { item, versions: versions.map(fromSnapshot) };
}
