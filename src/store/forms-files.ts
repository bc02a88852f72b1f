// The files of a document library's `Forms` folder that are no list items (SharePoint's forms
// folder holds them; spemu keeps only what clients write there, such as the library's column
// defaults, `client_LocationBasedDefaults.html`). Small, read whole, cached per list.

import type { List } from '../domain/model.ts';

export interface FormsFile {
  name: string;
  content: Uint8Array;
  uniqueId: string;
  /** Moves with every save: the file's etag and UIVersion. */
  version: number;
  created: string;
  modified: string;
  authorId: number;
  editorId: number;
}

export interface FormsFileRepository {
  /** The list's Forms files, by name (case-insensitively unique). */
  of(list: List): Promise<FormsFile[]>;
  /** Writes the file `name` (new, or new content for the one there, keeping its name's case and id); the file as saved. */
  put(list: List, file: { name: string; content: Uint8Array; uniqueId: string; actorId: number; now: string }): Promise<FormsFile>;
  /** Removes the file `name`; false if there was none. */
  delete(list: List, name: string): Promise<boolean>;
}
