// List item attachments: the rules of adding, replacing and removing them. An attachment's
// bytes stream into a blob first, outside any transaction; the row naming it is written after,
// so a failed upload leaves no attachment and its bytes are collected.

import { attachmentEtag, checkName } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { List } from '../domain/model.ts';
import type { Attachment } from '../store/attachments.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { expectedVersion, NO_CONDITIONS, type Conditions } from './conditions.ts';
import { DIRECT_UPLOAD_LIMIT, type UploadLimits } from './documents.ts';

/** A stale If-Match: files' 412, told in the attachment's own etag form, as its `$value` GET gives it. */
const stale = (conditions: Conditions, current: Attachment) => fail.etagMismatch(conditions.ifMatch ?? '', attachmentEtag(current));

export class AttachmentService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly limits: UploadLimits = { maxFileSize: DIRECT_UPLOAD_LIMIT }) {}

  /**
   * Adds `name` to the item (fileExists if it has one of that name), or with `replace` gives that
   * one new content. A replace's `conditions` (`PUT …/$value`): an If-Match that does not name
   * the attachment's version refuses it (412), checked again inside the write.
   */
  async put(list: List, itemId: number, name: string, content: AsyncIterable<Uint8Array>, options: { replace: boolean; conditions?: Conditions }): Promise<Attachment> {
    if (list.baseType !== 0) throw fail.attachmentsNotEnabled();
    checkName(name);
    // Refused before a byte is stored: no such item, or the name taken.
    if (!(await this.store.items.get(list, await this.store.fields.of(list), itemId))) throw fail.itemNotFound();
    const existing = await this.store.attachments.get(list, itemId, name);
    if (existing && !options.replace) throw fail.attachmentExists(name);
    if (!existing && options.replace) throw fail.fileNotFoundById();
    const conditions = options.conditions ?? NO_CONDITIONS;
    const expected = options.replace ? expectedVersion(conditions) : null;
    if (existing && expected !== null && expected !== existing.version) throw stale(conditions, existing);
    const limit = this.limits.maxFileSize;
    const blob = await this.store.blobs.put(content, { limit, tooLarge: () => fail.bodyTooLarge(limit) });
    const put = await this.store.attachments.put(list, itemId, existing?.name ?? name, blob, { replace: options.replace, now: this.actor.now(), expectedVersion: expected });
    if (put === 'noItem') throw fail.itemNotFound();
    if (put === 'exists') throw fail.attachmentExists(name);
    if (put === 'missing') throw fail.fileNotFoundById();
    if ('conflict' in put) throw stale(conditions, put.conflict);
    return put;
  }

  async delete(list: List, itemId: number, name: string): Promise<void> {
    if (!(await this.store.attachments.delete(list, itemId, name))) throw fail.fileNotFoundById();
  }
}
