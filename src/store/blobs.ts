// Bytes of files, attachments and file versions, apart from the SQL rows that name them.
//
// Two halves. `ByteStore` keeps bytes under keys and knows nothing of SQL: the workspace's
// folder on SQLite (blob-disk.ts), chunks in the database on PostgreSQL
// (sql/blob-chunks.ts); an S3-compatible object store would be a third (docs/deployment.md).
// `BlobStore` (sql/blobs.ts) is what the rest of the store uses: content-addressed blobs
// (one per distinct SHA-256), each with a reference count that the rows naming it move in
// their own transactions, so that a blob no committed row names can be collected and one
// that a committed row names never is.

import type { Readable } from 'node:stream';

/** An inclusive byte range, as HTTP's Range header states one. */
export interface ByteRange { start: number; end: number }

/** What a written blob is: its id (the SHA-256 of its bytes, hex) and its size. */
export interface BlobRef { id: string; size: number }

export interface ByteStore {
  /** Writes `source` durably under a new key (fsync'd before this resolves); fails past `limit` bytes, leaving nothing. */
  write(source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error): Promise<{ key: string; sha256: string; size: number }>;
  /**
   * Appends `source` to what `key` holds at `offset` (a new key when `key` is undefined: offset
   * 0), first dropping whatever lies past `offset` (left by an append that broke off); durable
   * (fsync'd) when this resolves; fails past `limit` bytes in all. The key and its size after.
   */
  append(key: string | undefined, offset: number, source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error): Promise<{ key: string; size: number }>;
  /** The SHA-256 (hex) of the first `size` bytes under `key`, an appended key's kept as it grew (read back only if this process missed some). */
  digest(key: string, size: number): Promise<string>;
  /** The bytes under `key` (a part of them with `range`), as a stream; undefined if the key holds nothing. */
  read(key: string, size: number, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes what `key` holds (no error if nothing). */
  remove(key: string): Promise<void>;
  /** Removes what writes left behind and no blob names (a crash between writing and recording), older than `before`. */
  sweep(before: Date, named: (key: string) => Promise<boolean>): Promise<number>;
}

export interface BlobStore {
  /**
   * Streams `source` into a blob and returns it. Identical bytes give the same blob. The blob
   * is durable when this resolves but has no reference yet: a row that names it calls
   * `addRef` in its own transaction (within the grace period `collect` leaves it).
   */
  put(source: AsyncIterable<Uint8Array>, options: { limit: number; tooLarge: () => Error }): Promise<BlobRef>;
  /**
   * The bytes of a chunked upload in progress: `source` appended at `offset` to what `key` holds
   * (see ByteStore.append). Not a blob yet: the upload's row names the key until `adopt` makes
   * its bytes a blob, so they are written once.
   */
  append(key: string | undefined, offset: number, source: AsyncIterable<Uint8Array>, options: { limit: number; tooLarge: () => Error }): Promise<{ key: string; size: number }>;
  /** The SHA-256 of an upload's bytes (`size` of them under `key`). */
  digest(key: string, size: number): Promise<string>;
  /**
   * In the caller's unit of work: the bytes under `key` (an upload's, their SHA-256 given) become
   * the blob of that content, or, if that content is a blob already, are `redundant`: the caller
   * discards them once its unit of work commits.
   */
  adopt(key: string, content: { sha256: string; size: number }): Promise<{ blob: BlobRef; redundant: boolean }>;
  /** Removes an upload's bytes that no blob names. */
  discard(key: string): Promise<void>;
  /** The blob's bytes (or a range of them) as a stream; undefined if there is no such blob. */
  open(id: string, range?: ByteRange): Promise<Readable | undefined>;
  /** The blob's size, or undefined. */
  size(id: string): Promise<number | undefined>;
  /** Counts one more row naming `id`, in the caller's unit of work. False if the blob is gone (put it again). */
  addRef(id: string): Promise<boolean>;
  /** Counts one row fewer naming `id`, in the caller's unit of work. */
  release(id: string): Promise<void>;
  /** Removes blobs that no row names and that were last put before `before`, and leftovers of failed writes. */
  collect(before: Date): Promise<{ blobs: number; leftovers: number }>;
}
