// Chunked uploads in progress: which file each is for, the offset its next chunk must start
// at, and the blobs of the chunks so far (referenced while the upload lasts, released when it
// finishes or is cancelled).

import type { BlobRef } from './blobs.ts';

export interface UploadSession {
  id: string;
  listRowId: number;
  itemId: number;
  userId: number;
  nextOffset: number;
  /** Blob ids of the chunks received, in order. */
  chunks: string[];
}

export interface UploadRepository {
  /** A new upload with its first chunk; false if an upload of that id exists already. */
  start(session: { id: string; listRowId: number; itemId: number; userId: number; chunk: BlobRef; now: string }): Promise<boolean>;
  get(id: string): Promise<UploadSession | undefined>;
  /** One more chunk, if the upload is at `offset`: the session after it, 'offset' if the offset is not the upload's, undefined if there is no such upload. */
  append(id: string, offset: number, chunk: BlobRef, now: string): Promise<UploadSession | 'offset' | undefined>;
  /** Ends the upload (finished or cancelled), releasing its chunks; false if there was none. */
  end(id: string): Promise<boolean>;
  /** Ends every upload no chunk reached since `before` (abandoned); how many. */
  purge(before: string): Promise<number>;
}
