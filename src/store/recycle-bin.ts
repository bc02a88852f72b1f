// A site collection's recycle bin (SP.RecycleBinItem): items, files and folders recycled with
// their past versions, and recycled lists, in two stages. A folder's contents are recycled with
// it and are part of its entry: listed, restored and deleted with it, never alone.

import type { Item, List } from '../domain/model.ts';

/** SP.RecycleBinItemType values spemu's bin holds. */
export const RecycleBinItemType = { File: 1, ListItem: 3, List: 4, Folder: 5 } as const;

export interface RecycleBinEntry {
  id: string;
  siteId: string;
  webId: string;
  /** The list it was recycled from (a recycled list: the list itself). */
  listId: string;
  itemId: number;
  title: string;
  itemType: number;
  /** 1 the first stage (the web's bin), 2 the second stage (the site collection's). */
  itemState: number;
  leafName: string;
  /** The folder it was in, server-relative without the leading slash (SharePoint's DirName). */
  dirName: string;
  size: number;
  authorId: number;
  deletedBy: number;
  deleted: string;
}

/** What a restore put back: the items (first the entry's own, then what was inside it), or the list. */
export interface Restored {
  list: List;
  listRestored: boolean;
  items: Item[];
  /** Folders made again because the entry's folder was gone (SharePoint recreates the path). */
  createdFolders: Item[];
}

export interface RecycleBinRepository {
  /** The site collection's entries, both stages, newest first (a folder's contents are not entries). */
  of(siteId: string): Promise<RecycleBinEntry[]>;
  get(siteId: string, id: string): Promise<RecycleBinEntry | undefined>;
  /** Moves first-stage entries to the second stage; how many moved. */
  moveToSecondStage(siteId: string, ids: readonly string[]): Promise<number>;
  /** Deletes the entries for good, with what they hold (content, versions, attachments, a list); how many went. */
  purge(siteId: string, ids: readonly string[]): Promise<number>;
  /** Puts the entry back where it was; fails (nothing changed) if its list is gone or its name is taken. */
  restore(entry: RecycleBinEntry, actorId: number, now: string): Promise<Restored>;
  /** Sends the list to the bin: it stays whole, hidden from every look-up, until restored or purged. The entry's id. */
  recycleList(list: List, actorId: number, now: string): Promise<string>;
}
