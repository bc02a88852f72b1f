// Files and folders: the rules of placing them (SharePoint's names, one name per folder, a
// folder that exists, the size a direct upload may have) over the store's documents and
// blobs. A file's bytes stream into a blob first, outside any transaction; the file row that
// names it is written after, in one unit of work, so a failed upload leaves no file and its
// bytes are collected.

import { checkName, splitPath } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Item, List } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

/** SharePoint Online's limit for a file sent in one request (PnPjs #3293; the CLI switches to chunks above it). */
export const DIRECT_UPLOAD_LIMIT = 250 * 1024 * 1024;

export class DocumentService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** A new folder `path` (its parent must exist). */
  async createFolder(list: List, path: string): Promise<Item> {
    const { dir, name } = splitPath(path);
    checkName(name);
    const fields = await this.store.fields.of(list);
    return this.store.documents.createFolder(list, fields, { dir, name, actorId: this.actor.userId, now: this.actor.now() });
  }

  /** Deletes the folder `path` with everything in it (folderNotFound if there is none; the root folder cannot be). */
  async deleteFolder(list: List, path: string): Promise<void> {
    const fields = await this.store.fields.of(list);
    if (!path || (await this.store.documents.deleteFolder(list, fields, path, this.actor.now())) === 0) {
      throw fail.folderNotFound(`${list.serverRelativeUrl}/${path}`);
    }
  }

  /** The file `path` with `content` (a stream, read once), new or (overwrite) replacing the content of the one there. */
  async putFile(list: List, path: string, content: AsyncIterable<Uint8Array>, options: { overwrite: boolean; limit?: number }): Promise<{ item: Item; created: boolean }> {
    const { dir, name } = splitPath(path);
    checkName(name);
    const fields = await this.store.fields.of(list);
    // Refused before a byte is stored: the name taken (overwrite off), or the folder missing.
    const existing = await this.store.documents.at(list, fields, dir, name);
    if (existing && (existing.place.folder || !options.overwrite)) throw fail.fileExists(`${list.serverRelativeUrl}/${path}`);
    const limit = options.limit ?? DIRECT_UPLOAD_LIMIT;
    const blob = await this.store.blobs.put(content, { limit, tooLarge: () => fail.bodyTooLarge(limit) });
    return this.store.documents.putFile(list, fields, { dir, name, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: options.overwrite });
  }
}
