// What each metadata write changed, for the other instances on the same database: one row
// per cache entry a write names (scope, key; an empty key names the whole scope), under the
// metadata counter's value that write set. An instance that sees the counter move reads the
// rows above the value it knew and drops just those entries; rows are kept for a while, then
// pruned (an instance that fell further behind drops its whole cache).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const cacheChanges = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  await db.schema.createTable('cache_changes')
    .addColumn('version', sql.raw(columnType(flavour, 'int')), (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cache_changes_version').on('cache_changes').column('version').execute();
}
