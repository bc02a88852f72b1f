// Files and folders: the rules of placing them (SharePoint's names, one name per folder, a
// folder that exists, the size a direct upload may have) over the store's documents and
// blobs. A file's bytes stream into a blob first, outside any transaction; the file row that
// names it is written after, in one unit of work, so a failed upload leaves no file and its
// bytes are collected.

import { randomUUID } from 'node:crypto';
import { checkName, checkPathLength, fileEtag, joinPath, placePath, segments, splitPath, urlInList, webRelativeUrl } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import { userInfoList } from '../identity/site-users.ts';
import type { BlobRef } from '../store/blobs.ts';
import { newContentModeration } from '../domain/moderation.ts';
import { versionIdOf } from '../domain/versions.ts';
import type { Store } from '../store/store.ts';
import type { UploadSession } from '../store/uploads.ts';
import type { Actor } from './actor.ts';
import { expectedVersion, NO_CONDITIONS, type Conditions } from './conditions.ts';
import { columnDefaultsAt } from './forms-files.ts';

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
   * Moves the folder `path` to the recycle bin: what it holds goes there too, in one unit of
   * work, as part of the folder's entry (listed, restored and deleted with it, as SharePoint's
   * bin shows one entry for a folder). The folder's entry id is returned.
   */
  async recycleFolder(list: List, path: string): Promise<string> {
    const fields = await this.store.fields.of(list);
    const { dir, name } = splitPath(path);
    const folder = name ? await this.store.documents.at(list, fields, dir, name) : undefined;
    if (!folder?.place.folder) throw fail.folderNotFound(urlInList(list.serverRelativeUrl, path));
    return this.store.transaction(async (store) => {
      const inside = await store.documents.below(list, fields, placePath(folder.place));
      // Nothing goes if a file in it is held by someone else (the holder read through the transaction:
      // on SQLite a read outside it would wait for the one connection the transaction holds).
      const documents = new DocumentService(store, this.actor);
      for (const item of inside) await documents.requireWritable(list, item);
      // Deepest first, so every entry's folder is still there when it is recycled.
      inside.sort((a, b) => b.place.dir.length - a.place.dir.length);
      const binId = randomUUID();
      for (const item of inside) await store.items.recycle(list, fields, item.id, this.actor.userId, this.actor.now(), { parentId: binId });
      const id = await store.items.recycle(list, fields, folder.id, this.actor.userId, this.actor.now(), { binId });
      if (!id) throw fail.folderNotFound(urlInList(list.serverRelativeUrl, path));
      return id;
    });
  }

  /** Refuses to remove a folder holding a file someone else has checked out. */
  private async requireNoneHeldBelow(list: List, fields: Field[], path: string): Promise<void> {
    if (!path) return;
    for (const item of await this.store.documents.below(list, fields, path)) await this.requireWritable(list, item);
  }

  // ---- chunked uploads: the chunks appended to one store of bytes held by the upload; the file's content changes only at FinishUpload, which copies nothing.

  /** StartUpload: a new upload of `item`'s content, with its first chunk; the offset the next chunk starts at. */
  async startUpload(list: List, item: Item, uploadId: string, chunk: AsyncIterable<Uint8Array>): Promise<number> {
    return this.store.uploads.exclusive(uploadId, async () => {
      if (await this.store.uploads.get(uploadId)) throw this.uploadExists(uploadId);
      const limit = this.limits.maxFileSize;
      const bytes = await this.store.blobs.append(undefined, 0, chunk, { limit, tooLarge: () => fail.bodyTooLarge(limit) });
      const started = await this.store.uploads.start({
        id: uploadId, listRowId: list.rowId, itemId: item.id, userId: this.actor.userId, storageKey: bytes.key, size: bytes.size, now: this.actor.now(),
      });
      if (!started) {
        await this.store.blobs.discard(bytes.key);
        throw this.uploadExists(uploadId);
      }
      return bytes.size;
    });
  }

  /** ContinueUpload: one more chunk at `offset`; the offset the next one starts at. */
  async continueUpload(list: List, item: Item, uploadId: string, offset: number, chunk: AsyncIterable<Uint8Array>): Promise<number> {
    return this.store.uploads.exclusive(uploadId, async () => {
      const { size } = await this.appendChunk(list, item, uploadId, offset, chunk);
      const appended = await this.store.uploads.append(uploadId, offset, size, this.actor.now());
      return (await this.recorded(this.store, uploadId, offset, appended)).nextOffset;
    });
  }

  /**
   * FinishUpload: the last chunk at `offset` (maybe empty); the upload's bytes become the file's
   * content as they are, in the same unit of work that ends the upload and changes the file.
   */
  async finishUpload(list: List, item: Item, uploadId: string, offset: number, chunk: AsyncIterable<Uint8Array>): Promise<Item> {
    const { updated, discard } = await this.store.uploads.exclusive(uploadId, async () => {
      const { key, size } = await this.appendChunk(list, item, uploadId, offset, chunk);
      const sha256 = await this.store.blobs.digest(key, size);
      const fields = await this.store.fields.of(list);
      return this.store.transaction(async (store) => {
        const finished = await store.uploads.finish(uploadId, offset, { sha256, size });
        const { blob, redundant, storageKey } = await this.recorded(store, uploadId, offset, finished);
        const { item: placed } = await store.documents.putFile(list, fields, {
          dir: item.place.dir, name: item.place.name!, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: true, values: newContentModeration(list),
        });
        return { updated: placed, discard: redundant ? storageKey : undefined };
      });
    });
    // The same content was a blob already: the upload's copy goes (a crash first leaves it to housekeeping).
    if (discard) await this.store.blobs.discard(discard);
    return updated;
  }

  /** CancelUpload: the upload ends and its bytes are removed; the file keeps its content. */
  async cancelUpload(uploadId: string): Promise<void> {
    await this.store.uploads.exclusive(uploadId, async () => {
      if (!(await this.store.uploads.end(uploadId))) throw fail.uploadNotFound(uploadId);
    });
  }

  private uploadExists(uploadId: string): Error {
    return fail.badArgument(`An upload with the id ${uploadId} is already in progress.`);
  }

  /** What recording a chunk answered, or SharePoint's failure for it (read through `store`: inside a unit of work, its own). */
  private async recorded<T>(store: Store, uploadId: string, offset: number, outcome: T | 'offset' | undefined): Promise<T> {
    if (outcome === undefined) throw fail.uploadNotFound(uploadId);
    if (outcome === 'offset') throw fail.uploadOffsetMismatch(offset, (await store.uploads.get(uploadId))?.nextOffset ?? offset);
    return outcome;
  }

  /** Appends the chunk to the upload's bytes (checked first: the upload is the item's and at `offset`); where they are and how many now. */
  private async appendChunk(list: List, item: Item, uploadId: string, offset: number, chunk: AsyncIterable<Uint8Array>) {
    let session = await this.store.uploads.get(uploadId);
    if (!session || session.listRowId !== list.rowId || session.itemId !== item.id) throw fail.uploadNotFound(uploadId);
    if (session.nextOffset !== offset) throw fail.uploadOffsetMismatch(offset, session.nextOffset);
    if (session.nextOffset > CHUNKED_UPLOAD_LIMIT) throw fail.bodyTooLarge(CHUNKED_UPLOAD_LIMIT);
    if (session.storageKey === undefined) session = await this.joinLegacyChunks(session);
    // A chunk is at most --max-file-size, the file at most CHUNKED_UPLOAD_LIMIT: the smaller of the two totals holds.
    const chunkLimit = offset + this.limits.maxFileSize;
    const limit = Math.min(CHUNKED_UPLOAD_LIMIT, chunkLimit);
    const bytes = await this.store.blobs.append(session.storageKey, offset, chunk, {
      limit, tooLarge: () => fail.bodyTooLarge(limit === chunkLimit ? this.limits.maxFileSize : CHUNKED_UPLOAD_LIMIT),
    });
    return { session, key: bytes.key, size: bytes.size };
  }

  /** An upload begun before uploads had one store of bytes (one blob per chunk): its chunks joined, once. */
  private async joinLegacyChunks(session: UploadSession): Promise<UploadSession> {
    const store = this.store;
    async function* joined(): AsyncGenerator<Uint8Array> {
      for (const id of session.chunks) {
        const part = await store.blobs.open(id);
        if (!part) throw new Error(`chunk ${id} of upload ${session.id} is missing`);
        yield* part as AsyncIterable<Uint8Array>;
      }
    }
    const tooLarge = () => fail.bodyTooLarge(CHUNKED_UPLOAD_LIMIT);
    const bytes = await this.store.blobs.append(undefined, 0, joined(), { limit: CHUNKED_UPLOAD_LIMIT, tooLarge });
    if (!(await this.store.uploads.convert(session.id, session.nextOffset, bytes.key))) {
      await this.store.blobs.discard(bytes.key);
      throw fail.uploadNotFound(session.id);
    }
    return { ...session, storageKey: bytes.key, chunks: [] };
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
  /**
   * New content for the file at `path`, or a new file. With `conditions` (a save of an existing
   * file's content: `PUT …/$value`), an If-Match that does not name the file's version refuses
   * it (412), checked again inside the write so a save in between is never overwritten.
   */
  async putFile(list: List, path: string, content: AsyncIterable<Uint8Array>, options: { overwrite: boolean; limit?: number; conditions?: Conditions }): Promise<{ item: Item; created: boolean }> {
    const { dir, name } = splitPath(path);
    checkName(name);
    const url = urlInList(list.serverRelativeUrl, path);
    checkPathLength(url);
    const fields = await this.store.fields.of(list);
    const conditions = options.conditions ?? NO_CONDITIONS;
    const check = (current: Item | undefined): void => {
      if (expectedVersion(conditions) === null) return;
      if (!current || current.place.folder) throw fail.fileNotFound(url);
      // Told in the file's own etag form (`"{GUID},N"`), as its GET's ETag header gives it.
      if (expectedVersion(conditions) !== current.version) throw fail.etagMismatch(conditions.ifMatch ?? '', fileEtag(current));
    };
    // Refused before a byte is stored: the name taken (overwrite off), the folder missing, a stale If-Match.
    const existing = await this.store.documents.at(list, fields, dir, name);
    if (existing && (existing.place.folder || !options.overwrite)) throw await this.taken(list, path);
    check(existing);
    if (existing) await this.requireWritable(list, existing);
    // A new file takes the column defaults of its folder (SharePoint's ItemAdded receiver); new content for one there does not.
    const defaults = existing ? {} : await columnDefaultsAt(this.store, list, fields, dir);
    const limit = options.limit ?? this.limits.maxFileSize;
    const blob = await this.store.blobs.put(content, { limit, tooLarge: () => fail.bodyTooLarge(limit) });
    return this.store.documents.putFile(list, fields, {
      dir, name, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: options.overwrite, values: { ...defaults, ...newContentModeration(list) }, check,
    });
  }
}
