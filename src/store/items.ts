// A list's items: pages compiled to SQL over the list's own table, point reads, and writes
// that keep the list's counters (ItemCount, next id, dates) in the same transaction.

import type { Expression } from '../query/ast.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';

export interface SortKey {
  field: Field;
  descending: boolean;
}

/** A page request over a list's items, compiled to SQL by the store. */
export interface ItemQuery {
  filter?: Expression | undefined;
  orderBy: SortKey[];
  /** Page size (already clamped by the caller). */
  top: number;
  /** Keyset position from `$skiptoken`: values of the order keys and the ID of the last row seen. */
  after?: { id: number; values: Array<StoredValue> } | undefined;
  /** `PagedPrev=TRUE`: walk backwards from `after`. */
  backwards?: boolean | undefined;
  /** The `$filter` text as sent, for error messages. */
  filterText?: string | undefined;
  /** The fields whose values to load (default: all). Fewer columns read faster on wide lists. */
  load?: Field[] | undefined;
  /** The parts of each item to read beyond its id, guid, version, author and editor (as `get`'s); undefined: all. */
  parts?: readonly ItemPart[] | undefined;
  /** `$expand`ed lookup/user fields by internal name, with their target list: the filter may reach into these. */
  lookups: Map<string, { list: List; fields: Field[] }>;
}

export interface ItemPage {
  items: Item[];
  /** True when more rows follow this page in the same direction. */
  hasMore: boolean;
}

export interface ItemWrite {
  values: Record<string, StoredValue>;
  actorId: number;
  now: string;
  /** Fixtures and form updates may state history; otherwise `now` and the actor are used. */
  created?: string | undefined;
  modified?: string | undefined;
  authorId?: number | undefined;
  /** An update that keeps the version (`bNewDocumentUpdate`): no past version is kept, the UI version stays. */
  inPlace?: boolean | undefined;
}

/** Parts of an item beyond its id, guid, version, author and editor (ItemRepository.get). */
export type ItemPart = 'contentTypeId' | 'created' | 'modified' | 'uiVersion' | 'place' | 'file' | 'attachments';

export interface ItemRepository {
  query(list: List, fields: Field[], query: ItemQuery): Promise<ItemPage>;
  /**
   * `load` names the fields whose values to read (default: all of `fields`); `parts`, the item's
   * own properties to read besides its id, guid, version, author and editor (default: all). What
   * is left out comes back as an ordinary item's (no file, at the list's root, no attachments,
   * empty dates and content type, version 1.0): for a caller that knows its projection reads none of it.
   */
  get(list: List, fields: Field[], id: number, load?: Field[], parts?: readonly ItemPart[]): Promise<Item | undefined>;
  getMany(list: List, fields: Field[], ids: number[], load?: Field[]): Promise<Item[]>;
  create(list: List, fields: Field[], write: ItemWrite): Promise<Item>;
  /**
   * Creates many items in one unit of work, with ids in the order given (bulk loads: tenant
   * files): multi-row inserts, the list's counters moved once. Returns the first new id.
   */
  createMany(list: List, fields: Field[], writes: ItemWrite[]): Promise<number>;
  /**
   * Applies `write` if the item's version still equals `expectedVersion` (null: any); with
   * versioning on, the item as it was becomes a past version in the same transaction.
   * Undefined if the item is gone.
   */
  update(list: List, fields: Field[], id: number, write: ItemWrite, expectedVersion: number | null): Promise<Item | 'conflict' | undefined>;
  delete(list: List, fields: Field[], id: number, expectedVersion: number | null, now: string): Promise<'deleted' | 'conflict' | undefined>;
  /**
   * Moves an item (with its past versions; its attachments, comments and likes stay under its
   * id) to the site's recycle bin; returns the recycle-bin item's id. `group`: the entry's id
   * chosen beforehand, or the entry (a folder's) it is recycled as part of.
   */
  recycle(list: List, fields: Field[], id: number, actorId: number, now: string, group?: RecycleGroup): Promise<string | undefined>;
  /** Takes the next id from the list's item counter without creating an item (ReserveListItemId). */
  reserveId(list: List): Promise<number>;
}

/** How an item joins the recycle bin: under an id chosen beforehand, or inside another entry (its folder's). */
export interface RecycleGroup {
  binId?: string;
  parentId?: string;
}
