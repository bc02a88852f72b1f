// A list's rating settings (SharePoint's `Ratings_VotingExperience` in its root folder's
// property bag): '' (none), 'Ratings' (stars) or 'Likes'. The rating fields themselves are
// ordinary list fields with item columns, added when the settings are turned on.

import type { Kysely, Migration } from 'kysely';

export const ratingExperience = (): Migration => ({ up: (db) => up(db) });

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('lists').addColumn('rating_experience', 'text', (c) => c.notNull().defaultTo('')).execute();
}
