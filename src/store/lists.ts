// Lists (and libraries) of a web: their records; each list's items live in its own table.

import type { List, NewList, Web } from '../domain/model.ts';

export interface ListPatch {
  title?: string;
  description?: string;
  hidden?: boolean;
  enableVersioning?: boolean;
  enableModeration?: boolean;
  enableMinorVersions?: boolean;
  disableCommenting?: boolean;
}

export interface ListRepository {
  create(web: Web, list: NewList, now: string): Promise<List>;
  /** The web's lists in creation order. */
  inWeb(webId: string): Promise<List[]>;
  byId(webId: string, id: string): Promise<List | undefined>;
  /** By title, ignoring case. */
  byTitle(webId: string, title: string): Promise<List | undefined>;
  /** By root folder URL, ignoring case and a trailing slash. */
  byUrl(webId: string, serverRelativeUrl: string): Promise<List | undefined>;
  /** The current record (ItemCount and dates move with every item write). */
  byRowId(rowId: number): Promise<List | undefined>;
  /**
   * The lists with their item counters (ItemCount, the item dates) as they are now. Records
   * read above are cached: where other instances write to the database too, their counters
   * may be behind, so whatever shows or judges by them asks here first.
   */
  withCounters(lists: List[]): Promise<List[]>;
  update(list: List, patch: ListPatch, now: string): Promise<List>;
  /** The list, its fields, items and versions. */
  delete(list: List): Promise<void>;
  /**
   * Inside a transaction: holds the list's row until it ends, so check-then-insert sequences
   * on that list (EnsureUser) run one at a time across connections and instances. A no-op
   * where transactions already run one at a time (SQLite).
   */
  lock(list: List): Promise<void>;
}
