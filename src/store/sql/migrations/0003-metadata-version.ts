// One counter row, bumped in the same transaction as every metadata write (sites, lists,
// fields, settings, the directory). Instances sharing a PostgreSQL database read it once per
// request: a different number means another instance changed metadata, so their in-process
// caches are dropped (SqlStore.sync in sql-store.ts).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour as SqlFlavour } from './frozen.ts';

export const metadataVersion = (flavour: SqlFlavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: SqlFlavour): Promise<void> {
  await db.schema.createTable('metadata_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', sql.raw(columnType(flavour, 'int')), (c) => c.notNull())
    .execute();
  await db.insertInto('metadata_version').values({ id: 1, version: 0 }).execute();
}
