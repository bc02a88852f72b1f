// ProjectData's bookkeeping (src/store/sql/projectdata-store.ts). The rows themselves live
// in one table per (site, entity set), `pd_<n>`, made on first write; these tables say which
// sites are PWA sites, which custom properties each set has, which physical table and
// columns hold a set, and which parts of an import are done.

import type { Kysely, Migration } from 'kysely';

export const projectData: Migration = { up };

async function up(db: Kysely<any>): Promise<void> {
  // A site with a row here serves the feed; `options` is PdSiteOptions as JSON.
  await db.schema.createTable('pd_sites')
    .addColumn('site_id', 'text', (c) => c.primaryKey())
    .addColumn('options', 'text', (c) => c.notNull())
    .execute();

  // Custom (enterprise) properties, appended to the built-in ones in `position` order.
  await db.schema.createTable('pd_properties')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('set_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('edm_type', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pd_properties_pk', ['site_id', 'set_name', 'name'])
    .execute();

  // The data table of each (site, set) that has one; `id` numbers the table (pd_<id>).
  await db.schema.createTable('pd_tables')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('set_name', 'text', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull().unique())
    .addPrimaryKeyConstraint('pd_tables_pk', ['site_id', 'set_name'])
    .execute();

  // Property → column of each data table. Columns are numbered, so property names (any
  // Unicode, case-sensitive) never have to be SQL identifiers.
  await db.schema.createTable('pd_columns')
    .addColumn('table_id', 'integer', (c) => c.notNull())
    .addColumn('property', 'text', (c) => c.notNull())
    .addColumn('column_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pd_columns_pk', ['table_id', 'property'])
    .execute();

  await db.schema.createTable('pd_import_marks')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('mark', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pd_import_marks_pk', ['site_id', 'mark'])
    .execute();
}
