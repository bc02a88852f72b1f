// Content approval (a list's EnableModeration): the two fields SharePoint adds to a list when it
// is turned on, and the states a file's _ModerationStatus takes (SP.ModerationStatusType).

import type { List, NewField, StoredValue } from './model.ts';
import { makesMinorVersions } from './versions.ts';

/** SP.ModerationStatusType: Approved 0, Denied 1, Pending 2, Draft 3 (and Scheduled 4, which spemu never sets). */
export const MODERATION_STATUS = { approved: 0, denied: 1, pending: 2, draft: 3 } as const;

export const MODERATION_STATUS_FIELD = '_ModerationStatus';
export const MODERATION_COMMENTS_FIELD = '_ModerationComments';

/** The fields a list gains with content approval: "Approval Status" and "Approver Comments", hidden and read-only. */
export const moderationFields = (): NewField[] => [
  { internalName: MODERATION_STATUS_FIELD, title: 'Approval Status', kind: 'Integer', required: false, indexed: false, hidden: true, readOnly: true, options: {} },
  { internalName: MODERATION_COMMENTS_FIELD, title: 'Approver Comments', kind: 'Note', required: false, indexed: false, hidden: true, readOnly: true, options: {} },
];

/** The values a file's item takes when it is decided on, or (pending, no comment) when new content waits. */
export const moderationValues = (status: number, comments: string | null): Record<string, StoredValue> =>
  ({ [MODERATION_STATUS_FIELD]: status, [MODERATION_COMMENTS_FIELD]: comments });

/**
 * What new content (a new file, an upload over one, a restore) sets on its item where the library
 * has content approval: it waits for a decision (pending, 2), or is a draft (3) where the library
 * has minor versions; its last comment gone. Nothing elsewhere.
 */
export function newContentModeration(list: List): Record<string, StoredValue> {
  if (!list.enableModeration) return {};
  return moderationValues(makesMinorVersions(list) ? MODERATION_STATUS.draft : MODERATION_STATUS.pending, null);
}
