// Every root web gets a Web Part Gallery (`_catalogs/wp`, template 113, `web.getCatalog(113)`)
// when it is made; workspaces made before that have none. A list is many rows (its record, its
// items' table, its fields and their columns, its default view) that the running code makes
// as it makes a new site's: copying those rows here would freeze a second, drifting copy of
// that code. So this migration only records that the gallery is owed, where there are sites;
// the server adds it through the domain's own function right after migrating
// (services/web-part-gallery.ts), in the same exclusive start-up step, and records it done.

import type { Kysely, Migration } from 'kysely';

export const webPartGallery = (): Migration => ({ up });

/** The settings key services/web-part-gallery.ts reads (domain/settings.ts WEB_PART_GALLERY_KEY); frozen here. */
const KEY = 'repair.web-part-gallery';

async function up(db: Kysely<any>): Promise<void> {
  const site = await db.selectFrom('sites').select('id').limit(1).executeTakeFirst();
  if (!site) return; // an empty workspace: its sites will be made with the gallery
  await db.insertInto('settings').values({ key: KEY, value: 'pending' }).execute();
}
