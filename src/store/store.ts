// The storage interface. The domain and the API layer talk only to this; SQLite and
// PostgreSQL implement it with one shared SQL implementation (sql-store.ts).

import type { Expression } from '../query/ast.ts';
import type { Field, FieldOptions, Item, List, NewField, NewList, Site, StoredValue, Web } from '../domain/model.ts';

export type { NewField, NewList };
import type { Directory } from './directory.ts';
import type { ProjectDataStore } from './projectdata.ts';

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
  /** Fixtures may state history; otherwise `now` and the actor are used. */
  created?: string | undefined;
  modified?: string | undefined;
  authorId?: number | undefined;
}

export interface ListPatch {
  title?: string;
  description?: string;
  hidden?: boolean;
  enableVersioning?: boolean;
}

export interface FieldPatch {
  title?: string;
  required?: boolean;
  indexed?: boolean;
  hidden?: boolean;
  options?: FieldOptions;
}

/** Storage operations. All writes are atomic; an error leaves nothing behind. */
export interface Store {
  /** The tenant directory, in the same database (and the same transaction, inside one). */
  readonly directory: Directory;
  /** The ProjectData reporting feed's rows and settings (same database and transactions). */
  readonly projectData: ProjectDataStore;
  /** Runs `fn` in one transaction: every write inside commits together or not at all. */
  transaction<T>(fn: (store: Store) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** A number that changes with every metadata write (sites, lists, fields, settings, directory), for caches shared across instances. */
  metadataVersion?(): Promise<number>;
  /**
   * Inside a transaction: holds the list's row until it ends, so check-then-insert sequences
   * on that list (EnsureUser) run one at a time across connections and instances. A no-op
   * where transactions already run one at a time (SQLite).
   */
  lockList(list: List): Promise<void>;

  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;

  // Sites and webs
  createSite(site: { url: string; title: string; description: string; now: string }): Promise<{ site: Site; web: Web }>;
  listSites(): Promise<Site[]>;
  getSiteByUrl(url: string): Promise<Site | undefined>;
  getWeb(id: string): Promise<Web | undefined>;

  // Lists
  createList(web: Web, list: NewList, now: string): Promise<List>;
  getLists(webId: string): Promise<List[]>;
  getListById(webId: string, id: string): Promise<List | undefined>;
  getListByTitle(webId: string, title: string): Promise<List | undefined>;
  getListByUrl(webId: string, serverRelativeUrl: string): Promise<List | undefined>;
  getListByRowId(rowId: number): Promise<List | undefined>;
  updateList(list: List, patch: ListPatch, now: string): Promise<List>;
  deleteList(list: List): Promise<void>;

  // Fields
  getFields(list: List): Promise<Field[]>;
  addField(list: List, field: NewField): Promise<Field>;
  updateField(list: List, field: Field, patch: FieldPatch): Promise<Field>;
  deleteField(list: List, field: Field): Promise<void>;

  // Items
  queryItems(list: List, fields: Field[], query: ItemQuery): Promise<ItemPage>;
  /** `load` names the fields whose values to read (default: all of `fields`). */
  getItem(list: List, fields: Field[], id: number, load?: Field[]): Promise<Item | undefined>;
  getItems(list: List, fields: Field[], ids: number[], load?: Field[]): Promise<Item[]>;
  createItem(list: List, fields: Field[], write: ItemWrite): Promise<Item>;
  /** Applies `write` if the item's version still equals `expectedVersion` (null: any). Returns undefined if the item is gone. */
  updateItem(list: List, fields: Field[], id: number, write: ItemWrite, expectedVersion: number | null): Promise<Item | 'conflict' | undefined>;
  deleteItem(list: List, fields: Field[], id: number, expectedVersion: number | null, now: string): Promise<'deleted' | 'conflict' | undefined>;
  /** Moves an item to the site's recycle bin; returns the recycle-bin item's id. */
  recycleItem(list: List, fields: Field[], id: number, actorId: number, now: string): Promise<string | undefined>;
  /**
   * An item's past versions, newest first: the item as it was before each update that moved
   * it to a new version (updateItem writes them while the list has versioning on). The
   * current version is the item itself.
   */
  getItemVersions(list: List, id: number): Promise<Item[]>;
  /** Deletes one past version; false if there is none with that major version number. */
  deleteItemVersion(list: List, id: number, uiVersion: number): Promise<boolean>;
  /** Takes the next id from the list's item counter without creating an item (ReserveListItemId). */
  reserveItemId(list: List): Promise<number>;
}
