// Files and folders of a list's folder tree. They are items of the list (items.ts reads and
// updates their fields); this repository places them: finds one by folder and name, lists a
// folder, and creates folders and files (a file's bytes are a blob put beforehand,
// blobs.ts). Names are unique in their folder whatever their case.

import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import type { BlobRef } from './blobs.ts';

export interface NewPlacedItem {
  /** The folder it goes in, relative to the list's root folder ('' = the root); it must exist. */
  dir: string;
  name: string;
  actorId: number;
  now: string;
  values?: Record<string, StoredValue>;
  /** Who made it and when, where that is not `actorId` at `now` (history a tenant file states); a new item only. */
  authorId?: number;
  created?: string;
}

/** Where a move or copy puts the file or folder: a folder of the target list ('' its root) and a name. */
export interface PlaceTarget {
  dir: string;
  name: string;
}

export interface TransferOptions {
  /** A file of that name at the destination is replaced (never a folder). */
  overwrite: boolean;
  actorId: number;
  now: string;
  /** The copy keeps Author and Created (a move always does). */
  keepAuthor?: boolean;
  /** Editor and Modified stay as they were (RetainEditorAndModifiedOnMove). */
  keepEditor?: boolean;
  /** The copy keeps the UniqueId (a move to another list). */
  keepIdentity?: boolean;
}

export interface DocumentRepository {
  /** The file or folder `name` in folder `dir`, or undefined. */
  at(list: List, fields: Field[], dir: string, name: string): Promise<Item | undefined>;
  /** The file or folder whose UniqueId is `uniqueId` (lower-case GUID), or undefined. */
  byUniqueId(list: List, fields: Field[], uniqueId: string): Promise<Item | undefined>;
  /** A page of what folder `dir` holds (folders, files or both), by id, after `afterId`. */
  children(list: List, fields: Field[], dir: string, options: { kind?: 'folder' | 'file'; top: number; afterId?: number }): Promise<{ items: Item[]; hasMore: boolean }>;
  /** Everything below the folder `path`, at any depth (not the folder itself). */
  below(list: List, fields: Field[], path: string): Promise<Item[]>;
  /** The files below the folder `path` ('' the root) at any depth: how many, their bytes, the latest change. */
  metrics(list: List, path: string): Promise<{ files: number; bytes: number; lastModified: string | undefined }>;
  /** How many files and folders folder `dir` holds directly (a folder's ItemCount). */
  count(list: List, dir: string): Promise<number>;
  /** A new folder; fileExists if the name is taken, folderNotFound if `dir` is not a folder. */
  createFolder(list: List, fields: Field[], folder: NewPlacedItem): Promise<Item>;
  /**
   * A new file with `blob` as its content, or (overwrite) new content for the file of that
   * name, the content it had kept as a past version where the list keeps versions.
   * fileExists if the name is taken (by a folder, or by a file without overwrite). `check` is
   * called inside the write's unit of work with the file there now (undefined: none): what it
   * throws aborts the write (a stale If-Match, checked atomically).
   */
  putFile(list: List, fields: Field[], file: NewPlacedItem & { blob: BlobRef; overwrite: boolean; check?: ((existing: Item | undefined) => void) | undefined }): Promise<{ item: Item; created: boolean }>;
  /**
   * Sets who holds the file checked out (null: nobody), if it is held by `expected` now
   * (undefined: whoever); a check-in also records its comment and moves the version. False if
   * the file is held otherwise (or gone).
   */
  setCheckOut(list: List, id: number, change: { holder: number | null; expected?: number | null; comment?: string; now: string; actorId: number }): Promise<boolean>;
  /**
   * Writes content approval's fields (`values`: _ModerationStatus and _ModerationComments) of the
   * file `id`, bumping its etag but not its version (a decision is no new version); or, with
   * 'undecided', of every item whose status is not set, without bumping. The rows written.
   */
  setModeration(list: List, fields: Field[], target: number | 'undecided', values: Record<string, StoredValue>): Promise<number>;
  /**
   * Gives the file `id` a new version number `to` (Publish, UnPublish, a major check-in, an
   * approval that publishes), if its number is `from` now: the file as it was becomes a past
   * version (where the list keeps versions), and the new one records `comment` (when given) and
   * `values`, by `actorId` at `now`. The file as it is now, or undefined if its number was not `from`.
   */
  renumber(list: List, fields: Field[], id: number, from: { major: number; minor: number }, to: { major: number; minor: number },
    write: { actorId: number; now: string; comment?: string; values?: Record<string, StoredValue> }): Promise<Item | undefined>;
  /**
   * Moves the file or folder at `from` in the source list to `to` in the target list (maybe the
   * same), a folder with everything below it, in one unit of work; the moved item, undefined if
   * there is nothing at `from`. fileExists if the destination is taken (unless `overwrite` and
   * both are files), folderNotFound if its folder is missing.
   */
  move(source: { list: List; fields: Field[] }, from: string, target: { list: List; fields: Field[] }, to: PlaceTarget, options: TransferOptions): Promise<Item | undefined>;
  /** Copies as `move` moves, leaving the source; the copy (its content shared, not duplicated). */
  copy(source: { list: List; fields: Field[] }, from: string, target: { list: List; fields: Field[] }, to: PlaceTarget, options: TransferOptions): Promise<Item | undefined>;
  /** Deletes the folder `path` and everything below it in one unit of work; the number of items deleted (0: no such folder). */
  deleteFolder(list: List, fields: Field[], path: string, now: string): Promise<number>;
}
