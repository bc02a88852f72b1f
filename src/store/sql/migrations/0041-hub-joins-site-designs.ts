// A site collection joined to a hub (site/JoinHubSite), and the tenant's site designs
// (SiteScriptUtility.CreateSiteDesign and the rest): who may see each (GrantSiteDesignRights) and
// what applying one did (ApplySiteDesign, AddSiteDesignTask: one run, its action outcomes).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const hubJoinsSiteDesigns = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  // One row per site collection in a hub (not the hub's own: hub_sites says that).
  await db.schema.createTable('hub_site_joins')
    .addColumn('site_id', 'text', (c) => c.primaryKey())
    .addColumn('hub_site_id', 'text', (c) => c.notNull())
    // ISO 8601 UTC.
    .addColumn('joined', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hub_site_joins_hub').on('hub_site_joins').column('hub_site_id').execute();

  // Tenant-wide, as site scripts are; `position` keeps GetSiteDesigns in creation order.
  await db.schema.createTable('site_designs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', int, (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('web_template', 'text', (c) => c.notNull())
    // A JSON array of the site script ids, in the order they run.
    .addColumn('site_script_ids', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('preview_image_url', 'text')
    .addColumn('preview_image_alt_text', 'text')
    .addColumn('thumbnail_url', 'text')
    .addColumn('is_default', int, (c) => c.notNull())
    .addColumn('design_package_id', 'text', (c) => c.notNull())
    .addColumn('version', int, (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_designs_position').on('site_designs').column('position').execute();

  // No rows: everyone sees the design (SharePoint's rule).
  await db.schema.createTable('site_design_rights')
    .addColumn('design_id', 'text', (c) => c.notNull())
    // The claims login name (i:0#.f|membership|upn), lower-cased.
    .addColumn('principal_name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('rights', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('site_design_rights_pk', ['design_id', 'principal_name'])
    .execute();

  // A design applied to a web; `actions` is the JSON array of its action outcomes.
  await db.schema.createTable('site_design_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('design_id', 'text', (c) => c.notNull())
    .addColumn('design_title', 'text', (c) => c.notNull())
    .addColumn('design_version', int, (c) => c.notNull())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('web_id', 'text', (c) => c.notNull())
    .addColumn('invoked_by', 'text', (c) => c.notNull())
    // Milliseconds since 1970 (SharePoint's StartTime), and the order runs are listed in.
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('position', int, (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_design_runs_web').on('site_design_runs').columns(['web_id', 'position']).execute();
}
