// Content approval (a list's EnableModeration): the two fields SharePoint adds to a list when it
// is turned on, and the states a file's _ModerationStatus takes (SP.ModerationStatusType).

import type { NewField, StoredValue } from './model.ts';

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
