// A web's own property bag entries (SP.Web.AllProperties beyond the vti_ ones spemu derives),
// as CSOM's PropertyValues.SetFieldValue and Web.Update write them: a JSON object of string
// values, null until one is set.

import type { Kysely, Migration } from 'kysely';

export const webProperties = (): Migration => ({ up: (db) => up(db) });

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webs').addColumn('properties', 'text').execute();
}
