// The tenant directory: users, groups, memberships, site roles and photos.

import { sql, type Kysely, type Migration } from 'kysely';
import type { Flavour as SqlFlavour } from './frozen.ts';

export const directory = (flavour: SqlFlavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  await db.schema.createTable('directory_users')
    .addColumn('upn_key', 'text', (c) => c.primaryKey())
    .addColumn('upn', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text')
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('job_title', 'text')
    .addColumn('department', 'text')
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('puid', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('profile', 'text', (c) => c.notNull())
    .execute();
  await sql`create index directory_users_email on directory_users (email_key)`.execute(db);

  await db.schema.createTable('directory_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mail', 'text')
    .execute();

  await db.schema.createTable('directory_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('directory_groups.id').onDelete('cascade'))
    .addColumn('member', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('directory_members_pk', ['group_id', 'member'])
    .execute();

  await db.schema.createTable('site_roles')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('principal', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_roles_pk', ['site_id', 'position'])
    .execute();

  await db.schema.createTable('user_photos')
    .addColumn('upn_key', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', flavour === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute();
}
