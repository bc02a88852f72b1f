// A library's Forms folder files that are no items (store/forms-files.ts): written and removed
// by name, and read for the column defaults a new file in the library takes
// (domain/location-defaults.ts; SharePoint's LocationBasedMetadataDefaultsReceiver on ItemAdded).

import { randomUUID } from 'node:crypto';
import { checkName, segments, splitPath, urlInList, webRelativeUrl } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import { defaultsForFolder, LOCATION_DEFAULTS_FILE, parseLocationDefaults } from '../domain/location-defaults.ts';
import type { Field, List, StoredValue, Web } from '../domain/model.ts';
import type { FormsFile } from '../store/forms-files.ts';
import type { Store, StoreReader } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { locate } from './document-paths.ts';

/** A Forms file is held in memory whole: SharePoint's are a few KiB; more than this is refused. */
export const FORMS_FILE_LIMIT = 4 * 1024 * 1024;

/** Only a document library has a Forms folder (a list's forms sit in its root folder, and hold no files). */
export const hasFormsFolder = (list: List): boolean => list.baseType === 1;

/** Its etag, as `/_api` gives it and its own URL answers it: `"{GUID},version"`. */
export const formsFileEtag = (file: FormsFile): string => `"{${file.uniqueId.toUpperCase()}},${file.version}"`;

/**
 * The Forms file a URL names (server-relative, relative to the web, or absolute), as a file's
 * own URL and download.aspx find it where no document is; undefined if the URL names none.
 */
export async function formsFileAt(store: Pick<StoreReader, 'lists' | 'fields' | 'documents' | 'formsFiles'>, web: Web, url: string): Promise<{ list: List; file: FormsFile } | undefined> {
  const found = await locate(store, web, url);
  if (!found || !hasFormsFolder(found.list)) return undefined;
  const { dir, name } = splitPath(found.path);
  if (segments(dir).length !== 1 || dir.toLowerCase() !== 'forms') return undefined;
  const file = (await store.formsFiles.of(found.list)).find((f) => f.name.toLowerCase() === name.toLowerCase());
  return file ? { list: found.list, file } : undefined;
}

export class FormsFileService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** The file `name` in the library's Forms folder with `content` (read whole), new or replacing the one there unless `overwrite` is off. */
  async put(list: List, name: string, content: AsyncIterable<Uint8Array>, options: { overwrite: boolean }): Promise<FormsFile> {
    checkName(name);
    const existing = (await this.store.formsFiles.of(list)).find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (existing && !options.overwrite) {
      const web = await this.store.sites.web(list.webId);
      throw fail.fileExists(webRelativeUrl(web?.serverRelativeUrl ?? '', urlInList(list.serverRelativeUrl, `Forms/${existing.name}`)));
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of content) {
      size += chunk.byteLength;
      if (size > FORMS_FILE_LIMIT) throw fail.bodyTooLarge(FORMS_FILE_LIMIT);
      chunks.push(chunk);
    }
    return this.store.formsFiles.put(list, {
      name: existing?.name ?? name, content: Buffer.concat(chunks), uniqueId: existing?.uniqueId ?? randomUUID(), actorId: this.actor.userId, now: this.actor.now(),
    });
  }

  async delete(list: List, name: string): Promise<void> {
    if (!(await this.store.formsFiles.delete(list, name))) throw fail.fileNotFound(urlInList(list.serverRelativeUrl, `Forms/${name}`));
  }
}

/**
 * The column defaults a new file in folder `dir` of the library takes, from its
 * `client_LocationBasedDefaults.html` (none without one, or where it cannot be read).
 */
export async function columnDefaultsAt(store: Pick<StoreReader, 'formsFiles'>, list: List, fields: Field[], dir: string): Promise<Record<string, StoredValue>> {
  if (!hasFormsFolder(list)) return {};
  const file = (await store.formsFiles.of(list)).find((f) => f.name.toLowerCase() === LOCATION_DEFAULTS_FILE.toLowerCase());
  if (!file) return {};
  const xml = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(file.content);
  return defaultsForFolder(parseLocationDefaults(xml), urlInList(list.serverRelativeUrl, dir), fields);
}
