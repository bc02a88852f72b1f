// Features a web or site collection switched from their defaults: one row each, on or off.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const features = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  await db.schema.createTable('feature_states')
    // `web:<web id>` or `site:<site id>`.
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('feature_id', 'text', (c) => c.notNull())
    .addColumn('active', sql.raw(columnType(flavour, 'int')), (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_states_pk', ['holder', 'feature_id'])
    .execute();
}
