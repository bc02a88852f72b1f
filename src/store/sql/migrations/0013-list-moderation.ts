// Content approval (EnableModeration) as a setting a list keeps: off for every list there is.
// The fields it brings (_ModerationStatus, _ModerationComments) are ordinary field rows and
// columns, added to a list when it is turned on.

import { sql, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const listModeration = (flavour: Flavour): Migration => ({
  async up(db) {
    await sql`alter table lists add column enable_moderation ${sql.raw(columnType(flavour, 'int'))} not null default 0`.execute(db);
  },
});
