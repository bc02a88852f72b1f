// Unique permissions: the securable objects (webs, lists, items) that no longer inherit their
// parent's role assignments, and the role assignments each of them has (a principal — a site
// user or a SharePoint group — bound to a permission level).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const roleAssignments = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  // `web:<web id>`, `list:<list row id>` or `item:<list row id>:<item id>`.
  await db.schema.createTable('unique_scopes')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('unique_scopes_pk', ['site_id', 'scope'])
    .execute();
  await db.schema.createTable('role_assignments')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('principal_id', int, (c) => c.notNull())
    .addColumn('role_definition_id', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('role_assignments_pk', ['site_id', 'scope', 'principal_id', 'role_definition_id'])
    .execute();
}
