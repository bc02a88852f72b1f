// Hub sites: a site collection registered as a hub (site/RegisterHubSite) until it is
// unregistered. One row per hub, keyed by its site collection's id (SP.HubSite's ID and SiteId
// are both that id); what the hub shows of itself (Title, Description, LogoUrl) is its own,
// starting from the site's title at registration. `version` is the hub's ETag ("1", "2", …).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const hubSites = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('hub_sites')
    .addColumn('site_id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('version', int, (c) => c.notNull())
    // ISO 8601 UTC, and the site user id of who registered it.
    .addColumn('registered', 'text', (c) => c.notNull())
    .addColumn('registered_by', int, (c) => c.notNull())
    .execute();
}
