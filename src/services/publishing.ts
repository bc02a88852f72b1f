// Publishing and content approval of files: the rules of a library's version numbers (drafts
// and major versions, where the library has minor versions) and of its approval status (where
// it has content approval). SharePoint's default library has neither: every version is
// published, so Publish and UnPublish are refused, and nothing waits, so Approve and Deny are.
// Each change is one write: a new number through the store's conditional renumber (the file as
// it was kept as a past version), or the approval fields alone.

import { urlInList, placePath } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import { MODERATION_STATUS, MODERATION_STATUS_FIELD, moderationValues } from '../domain/moderation.ts';
import { makesMinorVersions } from '../domain/versions.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { DocumentService } from './documents.ts';

/** SP.CheckinType: a minor (draft) check-in 0, a major one 1, an overwrite of the version 2. */
export const CHECK_IN_TYPE = { minor: 0, major: 1, overwrite: 2 } as const;
export type CheckInType = (typeof CHECK_IN_TYPE)[keyof typeof CHECK_IN_TYPE];

export class PublishingService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /**
   * CheckIn: the actor's hold ends with a comment. In a library with minor versions a major
   * check-in (CheckinType 1, PnPjs's default) of a draft also publishes it, in the same unit of
   * work; a minor (0) or overwrite (2) check-in keeps the number the content writes gave it.
   */
  async checkIn(list: List, item: Item, comment: string, type: CheckInType = CHECK_IN_TYPE.major): Promise<void> {
    if (type !== CHECK_IN_TYPE.major || !makesMinorVersions(list) || item.minorVersion === 0) {
      await new DocumentService(this.store, this.actor).checkIn(list, item, comment);
      return;
    }
    await this.store.transaction(async (tx) => {
      await new DocumentService(tx, this.actor).checkIn(list, item, comment);
      await new PublishingService(tx, this.actor).publish(list, item, comment);
    });
  }

  /**
   * Publish: the draft x.y becomes the major version x+1.0, with the comment as its check-in
   * comment. With content approval it is submitted instead: pending (2), its number kept until
   * Approve gives it the major one.
   */
  async publish(list: List, item: Item, comment: string): Promise<void> {
    if (!makesMinorVersions(list)) throw fail.publishNeedsMinorVersions();
    await this.requireWritable(list, item);
    if (item.minorVersion === 0) throw fail.alreadyPublished(this.urlOf(list, item));
    const fields = await this.store.fields.of(list);
    if (list.enableModeration) {
      await this.setStatus(list, fields, item, MODERATION_STATUS.pending, null);
      return;
    }
    await this.renumber(list, fields, item, item.uiVersion + 1, 0, { comment });
  }

  /**
   * UnPublish: a file waiting for approval goes back to draft (3); a major version x.0 becomes
   * the draft x.1, the major one kept in its history.
   */
  async unpublish(list: List, item: Item, comment: string): Promise<void> {
    if (!makesMinorVersions(list)) throw fail.publishNeedsMinorVersions();
    await this.requireWritable(list, item);
    const fields = await this.store.fields.of(list);
    if (list.enableModeration && Number(item.values[MODERATION_STATUS_FIELD]) === MODERATION_STATUS.pending) {
      await this.setStatus(list, fields, item, MODERATION_STATUS.draft, comment || null);
      return;
    }
    if (item.minorVersion !== 0 || item.uiVersion === 0) throw fail.notPublished(this.urlOf(list, item));
    await this.renumber(list, fields, item, item.uiVersion, 1, {
      comment, ...(list.enableModeration ? { values: moderationValues(MODERATION_STATUS.draft, null) } : {}),
    });
  }

  /**
   * Approve / Deny: only a library with content approval has files waiting for a decision.
   * Approving a draft in a library with minor versions gives it its major number (0.1 → 1.0).
   */
  async moderate(list: List, item: Item, decision: 'approve' | 'deny', comment: string): Promise<void> {
    if (!list.enableModeration) throw fail.approvalNotEnabled();
    const fields = await this.store.fields.of(list);
    const status = decision === 'approve' ? MODERATION_STATUS.approved : MODERATION_STATUS.denied;
    if (decision === 'approve' && makesMinorVersions(list) && item.minorVersion > 0) {
      await this.renumber(list, fields, item, item.uiVersion + 1, 0, { values: moderationValues(status, comment) });
      return;
    }
    await this.setStatus(list, fields, item, status, comment);
  }

  private async setStatus(list: List, fields: Field[], item: Item, status: number, comment: string | null): Promise<void> {
    if (await this.store.documents.setModeration(list, fields, item.id, moderationValues(status, comment)) === 0) throw fail.fileNotFound(this.urlOf(list, item));
  }

  /** The file's new version number, if nobody moved it meanwhile (else SharePoint's version conflict). */
  private async renumber(list: List, fields: Field[], item: Item, major: number, minor: number, write: { comment?: string; values?: Record<string, StoredValue> }): Promise<void> {
    const done = await this.store.documents.renumber(list, fields, item.id, { major: item.uiVersion, minor: item.minorVersion }, { major, minor },
      { actorId: this.actor.userId, now: this.actor.now(), ...write });
    if (!done) throw fail.fileChangedMeanwhile(this.urlOf(list, item));
  }

  private requireWritable(list: List, item: Item): Promise<void> {
    return new DocumentService(this.store, this.actor).requireWritable(list, item);
  }

  private urlOf(list: List, item: Item): string {
    return urlInList(list.serverRelativeUrl, placePath(item.place));
  }
}
