// Site scripts (SiteScriptUtility's CreateSiteScript and the rest): tenant-wide in SharePoint
// Online, so one table with no site column. A script's JSON is kept as the text it was sent as
// (GetSiteScriptMetadata answers it so); `position` keeps GetSiteScripts in creation order.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const siteScripts = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('site_scripts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', int, (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // null when CreateSiteScript named no Description (SharePoint answers null, not '').
    .addColumn('description', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('version', int, (c) => c.notNull())
    // ISO 8601 UTC.
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_scripts_position').on('site_scripts').column('position').execute();
}
