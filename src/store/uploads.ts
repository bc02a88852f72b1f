// Chunked uploads in progress: which file each is for, the offset its next chunk must start
// at, and where its bytes so far are (a storage key that each chunk is appended to, see
// BlobStore.append), named by the upload until it finishes (the bytes become the file's blob,
// uncopied) or ends otherwise (they are removed; housekeeping removes what a crash left).

import type { BlobRef } from './blobs.ts';

export interface UploadSession {
  id: string;
  listRowId: number;
  itemId: number;
  userId: number;
  nextOffset: number;
  /** The storage key holding the bytes received; undefined for an upload begun before it had one (then `chunks`). */
  storageKey: string | undefined;
  /** Blob ids of the chunks received, in order, of an upload begun before uploads had one storage key (migration 0013). */
  chunks: string[];
}

export interface UploadRepository {
  /**
   * Runs `task` when no other task of the upload `id` runs in this process: a chunk's offset is
   * checked, its bytes appended and recorded as one step, so two requests at one offset cannot
   * both write.
   */
  exclusive<T>(id: string, task: () => Promise<T>): Promise<T>;
  /** A new upload whose first chunk is the `size` bytes under `storageKey`; false if an upload of that id exists already. */
  start(session: { id: string; listRowId: number; itemId: number; userId: number; storageKey: string; size: number; now: string }): Promise<boolean>;
  get(id: string): Promise<UploadSession | undefined>;
  /** Records that its bytes now reach `nextOffset`, if the upload is at `offset`: the session after it, 'offset' if the offset is not the upload's, undefined if there is no such upload. */
  append(id: string, offset: number, nextOffset: number, now: string): Promise<UploadSession | 'offset' | undefined>;
  /**
   * In the caller's unit of work, if the upload is at `offset`: it ends and its bytes (`content`:
   * their SHA-256 and size) become a blob (BlobStore.adopt); 'offset' or undefined as `append`.
   */
  finish(id: string, offset: number, content: { sha256: string; size: number }): Promise<{ blob: BlobRef; redundant: boolean; storageKey: string } | 'offset' | undefined>;
  /** An upload begun with one blob per chunk now has its bytes under `storageKey` (the chunks joined): its chunks are released. False if it changed meanwhile. */
  convert(id: string, offset: number, storageKey: string): Promise<boolean>;
  /** Ends the upload (cancelled or abandoned), removing its bytes; false if there was none. */
  end(id: string): Promise<boolean>;
  /** Ends every upload no chunk reached since `before` (abandoned); how many. */
  purge(before: string): Promise<number>;
}
