// User custom actions of a site collection, a web or a list: one row each, its settable
// properties as JSON (they are read and written whole, never queried).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const userCustomActions = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  await db.schema.createTable('user_custom_actions')
    // `site:<site id>`, `web:<web id>` or `list:<list row id>`.
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('position', sql.raw(columnType(flavour, 'int')), (c) => c.notNull())
    .addColumn('props', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_custom_actions_pk', ['holder', 'id'])
    .execute();
}
