// A web's logo (SP.Web.SiteLogoUrl), as setsitelogo's WebLogo and a web MERGE set it: null
// until one is set, and again once it is reset (an empty URL).

import type { Kysely, Migration } from 'kysely';

export const siteLogo = (): Migration => ({ up: (db) => up(db) });

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webs').addColumn('site_logo_url', 'text').execute();
}
