// The stored form of an item kept apart from its list's table: a past version
// (item_versions.data) and a recycled item (recycle_bin.data). It is a format of its own,
// numbered, and written field by field, so that a change to the in-memory Item record never
// changes what is on disk, and rows written by any earlier spemu still read.
//
//   format 1: { "format": 1, "id", "guid", "contentTypeId", "created", "modified",
//               "authorId", "editorId", "version", "uiVersion", "values": { internal name: stored value } }
//   recycled: { "format": 1, "item": <format 1>, "versions": [<format 1>, … newest first] }
//   before format 1 (spemu ≤ 0.1, no "format"): the Item record as JSON; recycled items the
//   same with an optional "versions" array inside.

import type { Item, StoredValue } from '../../domain/model.ts';

export const SNAPSHOT_FORMAT = 1;

interface ItemSnapshotV1 {
  format: 1;
  id: number;
  guid: string;
  contentTypeId: string;
  created: string;
  modified: string;
  authorId: number;
  editorId: number;
  version: number;
  uiVersion: number;
  values: Record<string, StoredValue>;
}

function toSnapshot(item: Item): ItemSnapshotV1 {
  return {
    format: 1, id: item.id, guid: item.guid, contentTypeId: item.contentTypeId, created: item.created,
    modified: item.modified, authorId: item.authorId, editorId: item.editorId, version: item.version,
    uiVersion: item.uiVersion, values: { ...item.values },
  };
}

/** Both the legacy record and format 1 carry these names; any other format is refused, not guessed. */
function fromSnapshot(data: any): Item {
  if (data.format !== undefined && data.format !== 1) throw new Error(`unknown item snapshot format ${String(data.format)}`);
  return {
    id: Number(data.id), guid: String(data.guid), contentTypeId: String(data.contentTypeId), created: String(data.created),
    modified: String(data.modified), authorId: Number(data.authorId), editorId: Number(data.editorId),
    version: Number(data.version), uiVersion: Number(data.uiVersion), values: { ...(data.values ?? {}) },
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
