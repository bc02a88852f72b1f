// Files and folders: the rules of placing them (SharePoint's names, one name per folder, a
// folder that exists, the size a direct upload may have) over the store's documents and
// blobs. A file's bytes stream into a blob first, outside any transaction; the file row that
// names it is written after, in one unit of work, so a failed upload leaves no file and its
// bytes are collected.

import { checkName, checkPathLength, joinPath, placePath, segments, splitPath, urlInList, webRelativeUrl } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import { userInfoList } from '../identity/site-users.ts';
import type { BlobRef } from '../store/blobs.ts';
import { newContentModeration } from '../domain/moderation.ts';
import { versionIdOf } from '../domain/versions.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

/** SharePoint Online's limit for a file sent in one request (PnPjs #3293; the CLI switches to chunks above it). */
export const DIRECT_UPLOAD_LIMIT = 250 * 1024 * 1024;
/** The largest file a chunked upload makes (SharePoint Online allows 250 GB; a local server, less by default). */
export const CHUNKED_UPLOAD_LIMIT = 10 * 1024 * 1024 * 1024;


/** How a move or copy treats a taken name and the item's people and times (MoveCopyOptions). */
export interface TransferChoices {
  overwrite: boolean;
  keepBoth?: boolean;
  keepAuthor?: boolean;
  keepEditor?: boolean;
}

/** What one request may upload (`--max-file-size`). */
export interface UploadLimits {
  /** A file sent whole, one chunk of a chunked upload, an attachment. */
  maxFileSize: number;
}

export class DocumentService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly limits: UploadLimits = { maxFileSize: DIRECT_UPLOAD_LIMIT }) {}

  /** A new folder `path` (its parent must exist). */
  async createFolder(list: List, path: string): Promise<Item> {
    const { dir, name } = splitPath(path);
    checkName(name);
    checkPathLength(urlInList(list.serverRelativeUrl, path));
    const fields = await this.store.fields.of(list);
    return this.store.documents.createFolder(list, fields, { dir, name, actorId: this.actor.userId, now: this.actor.now() });
  }

  // ---- check-out: a file checked out is changed only by whoever holds it.

  /** CheckOut: the file is held by the actor (again, if it already is). */
  async checkOut(list: List, item: Item): Promise<void> {
    if (item.file?.checkedOutBy === this.actor.userId) return;
    if (!(await this.store.documents.setCheckOut(list, item.id, { holder: this.actor.userId, expected: null, now: this.actor.now(), actorId: this.actor.userId }))) {
      throw await this.checkedOut(list, item);
    }
  }

  /** CheckIn: the actor's hold ends with a comment (PublishingService.checkIn also publishes a draft on a major check-in). */
  async checkIn(list: List, item: Item, comment: string): Promise<void> {
    await this.endHold(list, item, comment);
  }

  /** UndoCheckOut: the actor's hold ends and nothing else changes. */
  async undoCheckOut(list: List, item: Item): Promise<void> {
    await this.endHold(list, item, undefined);
  }

  /** Refuses a change to a file someone else holds checked out. */
  async requireWritable(list: List, item: Item): Promise<void> {
    const holder = item.file?.checkedOutBy;
    if (holder != null && holder !== this.actor.userId) throw await this.checkedOut(list, item);
  }

  private async endHold(list: List, item: Item, comment: string | undefined): Promise<void> {
    if (item.file?.checkedOutBy == null) throw fail.fileNotCheckedOut(this.urlOf(list, item));
    const ended = await this.store.documents.setCheckOut(list, item.id, {
      holder: null, expected: this.actor.userId, now: this.actor.now(), actorId: this.actor.userId, ...(comment !== undefined ? { comment } : {}),
    });
    if (!ended) throw await this.checkedOut(list, item);
  }

  /** The failure naming who holds the file now (by login, from the site's User Information List). */
  private async checkedOut(list: List, item: Item): Promise<Error> {
    const holderId = (await this.store.items.get(list, await this.store.fields.of(list), item.id))?.file?.checkedOutBy ?? item.file?.checkedOutBy;
    const siteId = (await this.store.sites.web(list.webId))?.siteId;
    const site = (await this.store.sites.all()).find((s) => s.id === siteId);
    const users = site ? await userInfoList(this.store, site) : undefined;
    const holder = users && holderId != null ? await this.store.items.get(users.list, users.fields, holderId) : undefined;
    return fail.fileCheckedOut(this.urlOf(list, item), String(holder?.values.Name ?? 'another user'));
  }

  /** SharePoint's failure for a name taken, naming the place relative to its web. */
  private async taken(list: List, path: string): Promise<Error> {
    return fail.fileExists(webRelativeUrl((await this.store.sites.web(list.webId))?.serverRelativeUrl ?? '', urlInList(list.serverRelativeUrl, path)));
  }

  private urlOf(list: List, item: Item): string {
    return urlInList(list.serverRelativeUrl, placePath(item.place));
  }

  // ---- move and copy: a file or a folder with everything below it, within a site collection.

  /**
   * Moves or copies `item` of `list` to `to` (a list and the path in it). `keepBoth` gives the
   * new file or folder a free name (`a 1.txt`) when the name is taken; `overwrite` replaces a
   * file there instead. A copy's Author and Created are the actor's and now unless `keepAuthor`;
   * a move keeps them, and keeps Editor and Modified too with `keepEditor`.
   */
  async transfer(kind: 'move' | 'copy', list: List, item: Item, to: { list: List; path: string }, options: TransferChoices): Promise<Item> {
    const { dir, name } = splitPath(to.path);
    checkName(name);
    if (kind === 'move') await this.requireWritable(list, item);
    const source = { list, fields: await this.store.fields.of(list) };
    await this.requireShortEnough(source, item, to);
    const target = { list: to.list, fields: await this.store.fields.of(to.list) };
    const free = options.keepBoth && !options.overwrite ? await this.freeName(target.list, target.fields, dir, name, item) : name;
    const transfer = { overwrite: options.overwrite, actorId: this.actor.userId, now: this.actor.now() };
    const moved = kind === 'move'
      ? await this.store.documents.move(source, placePath(item.place), target, { dir, name: free }, { ...transfer, keepEditor: options.keepEditor ?? false })
      : await this.store.documents.copy(source, placePath(item.place), target, { dir, name: free }, { ...transfer, keepAuthor: options.keepAuthor ?? false });
    if (!moved) throw fail.fileNotFound(this.urlOf(list, item));
    return moved;
  }

  /** A new name for `item` in its own folder: a name, never a path (a `/` in it is refused as SharePoint refuses it). */
  async rename(list: List, item: Item, name: string): Promise<Item> {
    checkName(name);
    return this.transfer('move', list, item, { list, path: joinPath(item.place.dir, name) }, { overwrite: false });
  }

  /** RestoreByLabel: the content the file had at the version `versionId` becomes its content again, as a new version. */
  async restoreVersion(list: List, item: Item, versionId: number): Promise<Item> {
    await this.requireWritable(list, item);
    const version = (await this.store.versions.of(list, item.id)).find((v) => versionIdOf(v) === versionId && v.file);
    if (!version?.file) throw fail.versionNotFound();
    const fields = await this.store.fields.of(list);
    const { item: restored } = await this.store.documents.putFile(list, fields, {
      dir: item.place.dir, name: item.place.name!, actorId: this.actor.userId, now: this.actor.now(),
      blob: { id: version.file.blobId, size: version.file.size }, overwrite: true, values: newContentModeration(list),
    });
    return restored;
  }

  /**
   * Refuses a move or copy that would make a path longer than SharePoint allows: the new place
   * itself, and for a folder the deepest path below it (everything in it moves along).
   */
  private async requireShortEnough(source: { list: List; fields: Field[] }, item: Item, to: { list: List; path: string }): Promise<void> {
    const from = placePath(item.place);
    let deepest = '';
    if (item.place.folder) {
      for (const below of await this.store.documents.below(source.list, source.fields, from)) {
        const rest = placePath(below.place).slice(from.length);
        if (rest.length > deepest.length) deepest = rest;
      }
    }
    checkPathLength(urlInList(to.list.serverRelativeUrl, to.path) + deepest);
  }

  /** `name`, or the first of `stem 1.ext`, `stem 2.ext`, … not taken in `dir` (the item itself does not count). */
  private async freeName(list: List, fields: Field[], dir: string, name: string, self: Item): Promise<string> {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 && !self.place.folder ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? name : `${stem} ${n}${ext}`;
      const taken = await this.store.documents.at(list, fields, dir, candidate);
      if (!taken || taken.guid === self.guid) return candidate;
    }
  }

  /**
   * Deletes the folder `path` with everything in it (folderNotFound if there is none; the root
   * folder cannot be). `ifEmpty` refuses a folder that holds anything (DeleteIfEmpty).
   */
  async deleteFolder(list: List, path: string, options: { ifEmpty?: boolean } = {}): Promise<void> {
    const fields = await this.store.fields.of(list);
    if (options.ifEmpty && path && (await this.store.documents.count(list, path)) > 0) throw fail.folderNotEmpty(urlInList(list.serverRelativeUrl, path));
    await this.requireNoneHeldBelow(list, fields, path);
    if (!path || (await this.store.documents.deleteFolder(list, fields, path, this.actor.now())) === 0) {
      throw fail.folderNotFound(urlInList(list.serverRelativeUrl, path));
    }
  }

  /**
   * Moves the folder `path` to the recycle bin: what it holds goes there too, each file and
   * folder an entry of its own (spemu's bin restores items one by one), in one unit of work.
   * The folder's own entry id is returned.
   */
  async recycleFolder(list: List, path: string): Promise<string> {
    const fields = await this.store.fields.of(list);
    const { dir, name } = splitPath(path);
    const folder = name ? await this.store.documents.at(list, fields, dir, name) : undefined;
    if (!folder?.place.folder) throw fail.folderNotFound(urlInList(list.serverRelativeUrl, path));
    return this.store.transaction(async (store) => {
      const inside = await store.documents.below(list, fields, placePath(folder.place));
      // Nothing goes if a file in it is held by someone else.
      for (const item of inside) await this.requireWritable(list, item);
      // Deepest first, so every entry's folder is still there when it is recycled.
      inside.sort((a, b) => b.place.dir.length - a.place.dir.length);
      for (const item of inside) await store.items.recycle(list, fields, item.id, this.actor.userId, this.actor.now());
      const id = await store.items.recycle(list, fields, folder.id, this.actor.userId, this.actor.now());
      if (!id) throw fail.folderNotFound(urlInList(list.serverRelativeUrl, path));
      return id;
    });
  }

  /** Refuses to remove a folder holding a file someone else has checked out. */
  private async requireNoneHeldBelow(list: List, fields: Field[], path: string): Promise<void> {
    if (!path) return;
    for (const item of await this.store.documents.below(list, fields, path)) await this.requireWritable(list, item);
  }

  // ---- chunked uploads: each chunk a blob held by the upload; the file's content changes only at FinishUpload.

  /** StartUpload: a new upload of `item`'s content, with its first chunk; the offset the next chunk starts at. */
  async startUpload(list: List, item: Item, uploadId: string, chunk: AsyncIterable<Uint8Array>): Promise<number> {
    const blob = await this.putChunk(chunk);
    const started = await this.store.uploads.start({ id: uploadId, listRowId: list.rowId, itemId: item.id, userId: this.actor.userId, chunk: blob, now: this.actor.now() });
    if (!started) throw fail.badArgument(`An upload with the id ${uploadId} is already in progress.`);
    return blob.size;
  }

  /** ContinueUpload: one more chunk at `offset`; the offset the next one starts at. */
  async continueUpload(list: List, item: Item, uploadId: string, offset: number, chunk: AsyncIterable<Uint8Array>): Promise<number> {
    return (await this.appendChunk(list, item, uploadId, offset, chunk)).nextOffset;
  }

  /** FinishUpload: the last chunk at `offset` (maybe empty); the chunks become the file's content, in one write. */
  async finishUpload(list: List, item: Item, uploadId: string, offset: number, chunk: AsyncIterable<Uint8Array>): Promise<Item> {
    const session = await this.appendChunk(list, item, uploadId, offset, chunk);
    const store = this.store;
    async function* joined(): AsyncGenerator<Uint8Array> {
      for (const id of session.chunks) {
        const part = await store.blobs.open(id);
        if (!part) throw new Error(`chunk ${id} of upload ${uploadId} is missing`);
        yield* part as AsyncIterable<Uint8Array>;
      }
    }
    const blob = await this.store.blobs.put(joined(), { limit: CHUNKED_UPLOAD_LIMIT, tooLarge: () => fail.bodyTooLarge(CHUNKED_UPLOAD_LIMIT) });
    const fields = await this.store.fields.of(list);
    const { item: updated } = await this.store.documents.putFile(list, fields, {
      dir: item.place.dir, name: item.place.name!, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: true, values: newContentModeration(list),
    });
    await this.store.uploads.end(uploadId);
    return updated;
  }

  /** CancelUpload: the upload ends and its chunks are released; the file keeps its content. */
  async cancelUpload(uploadId: string): Promise<void> {
    if (!(await this.store.uploads.end(uploadId))) throw fail.uploadNotFound(uploadId);
  }

  private putChunk(chunk: AsyncIterable<Uint8Array>) {
    const limit = this.limits.maxFileSize;
    return this.store.blobs.put(chunk, { limit, tooLarge: () => fail.bodyTooLarge(limit) });
  }

  private async appendChunk(list: List, item: Item, uploadId: string, offset: number, chunk: AsyncIterable<Uint8Array>) {
    // Checked before the chunk's bytes are stored, and again atomically when it is recorded.
    const session = await this.store.uploads.get(uploadId);
    if (!session || session.listRowId !== list.rowId || session.itemId !== item.id) throw fail.uploadNotFound(uploadId);
    if (session.nextOffset !== offset) throw fail.uploadOffsetMismatch(offset, session.nextOffset);
    if (session.nextOffset > CHUNKED_UPLOAD_LIMIT) throw fail.bodyTooLarge(CHUNKED_UPLOAD_LIMIT);
    const appended = await this.store.uploads.append(uploadId, offset, await this.putChunk(chunk), this.actor.now());
    if (appended === undefined) throw fail.uploadNotFound(uploadId);
    if (appended === 'offset') throw fail.uploadOffsetMismatch(offset, (await this.store.uploads.get(uploadId))?.nextOffset ?? offset);
    return appended;
  }

  /** The folder `path` and every folder above it that is missing (a tenant file names only the deepest). */
  async ensureFolder(list: List, path: string): Promise<void> {
    const fields = await this.store.fields.of(list);
    let dir = '';
    for (const name of segments(path)) {
      const existing = await this.store.documents.at(list, fields, dir, name);
      if (!existing) await this.createFolder(list, joinPath(dir, name));
      else if (!existing.place.folder) throw await this.taken(list, joinPath(dir, name));
      dir = joinPath(dir, name);
    }
  }

  /**
   * The file `path` with a blob put beforehand as its content: for writers that put every
   * blob before the one unit of work that places them all (a tenant file's load), since a blob
   * is never put inside one. `values` are the item's fields; `authorId` and `created` its
   * history where it is not the actor's now (a new file only).
   */
  async placeFile(list: List, path: string, blob: BlobRef, options: { overwrite: boolean; values?: Record<string, StoredValue>; authorId?: number; created?: string }): Promise<{ item: Item; created: boolean }> {
    const { dir, name } = splitPath(path);
    checkName(name);
    checkPathLength(urlInList(list.serverRelativeUrl, path));
    const fields = await this.store.fields.of(list);
    const existing = await this.store.documents.at(list, fields, dir, name);
    if (existing) await this.requireWritable(list, existing);
    return this.store.documents.putFile(list, fields, {
      dir, name, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: options.overwrite,
      values: { ...newContentModeration(list), ...(options.values ?? {}) },
      ...(options.authorId !== undefined ? { authorId: options.authorId } : {}),
      ...(options.created !== undefined ? { created: options.created } : {}),
    });
  }

  /** The file `path` with `content` (a stream, read once), new or (overwrite) replacing the content of the one there. */
  async putFile(list: List, path: string, content: AsyncIterable<Uint8Array>, options: { overwrite: boolean; limit?: number }): Promise<{ item: Item; created: boolean }> {
    const { dir, name } = splitPath(path);
    checkName(name);
    checkPathLength(urlInList(list.serverRelativeUrl, path));
    const fields = await this.store.fields.of(list);
    // Refused before a byte is stored: the name taken (overwrite off), or the folder missing.
    const existing = await this.store.documents.at(list, fields, dir, name);
    if (existing && (existing.place.folder || !options.overwrite)) throw await this.taken(list, path);
    if (existing) await this.requireWritable(list, existing);
    const limit = options.limit ?? this.limits.maxFileSize;
    const blob = await this.store.blobs.put(content, { limit, tooLarge: () => fail.bodyTooLarge(limit) });
    return this.store.documents.putFile(list, fields, { dir, name, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: options.overwrite, values: newContentModeration(list) });
  }
}
