// Permission levels a site collection defines besides SharePoint's built-in ones: name,
// description, order and base permission mask (two 32-bit halves).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const roleDefinitions = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('role_definitions')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('id', int, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('sort_order', int, (c) => c.notNull())
    .addColumn('high', int, (c) => c.notNull())
    .addColumn('low', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('role_definitions_pk', ['site_id', 'id'])
    .addUniqueConstraint('role_definitions_name', ['site_id', 'name_key'])
    .execute();
}
