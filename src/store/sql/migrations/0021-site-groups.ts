// A site collection's own SharePoint groups (besides the three every site has, whose members
// are the site's role holders): their record and their members (site users, by id).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const siteGroups = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('site_groups')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('id', int, (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // A site user's id, or null: the group's owner (the site's Owners group answers then).
    .addColumn('owner_id', int)
    .addColumn('allow_members_edit', int, (c) => c.notNull())
    .addColumn('only_members_view', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('site_groups_pk', ['site_id', 'id'])
    .addUniqueConstraint('site_groups_title', ['site_id', 'title_key'])
    .execute();
  await db.schema.createTable('site_group_members')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('group_id', int, (c) => c.notNull())
    .addColumn('user_id', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('site_group_members_pk', ['site_id', 'group_id', 'user_id'])
    .execute();
}
