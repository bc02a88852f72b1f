// List item attachments: files that belong to one item (SharePoint's `AttachmentFiles`), each a
// name and a blob (blobs.ts, put beforehand). Names are unique per item whatever their case.

import type { List } from '../domain/model.ts';
import type { BlobRef } from './blobs.ts';

export interface Attachment {
  name: string;
  blobId: string;
  size: number;
  created: string;
  modified: string;
  /** Its own GUID (SharePoint's file UniqueId), kept while it lives; its ETag is `"{GUID},version"`. */
  uniqueId: string;
  /** 1 when added, one more at each new content. */
  version: number;
}

export interface PutOptions {
  replace: boolean;
  now: string;
  expectedVersion?: number | null | undefined;
}

export interface AttachmentRepository {
  /** The item's attachments, by name. */
  of(list: List, itemId: number): Promise<Attachment[]>;
  /** The attachment `name` of the item (any case), or undefined. */
  get(list: List, itemId: number, name: string): Promise<Attachment | undefined>;
  /**
   * Adds `name` with `blob` as its content, or (replace) gives the one of that name new content.
   * 'exists' if the name is taken and `replace` is off, 'missing' if it is on and there is none,
   * 'noItem' if the item is gone. With `expectedVersion` (replace only; null: any), the current
   * one when its version is another, checked inside the write so no save in between is lost.
   */
  put(list: List, itemId: number, name: string, blob: BlobRef, options: PutOptions): Promise<Attachment | 'exists' | 'missing' | 'noItem' | { conflict: Attachment }>;
  /** Removes the attachment and releases its content; false if there was none. */
  delete(list: List, itemId: number, name: string): Promise<boolean>;
  /** Removes all of an item's attachments (the item is deleted). Inside a unit of work only. */
  dropAll(list: List, itemId: number): Promise<void>;
}
