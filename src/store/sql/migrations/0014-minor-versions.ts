// Minor versions (drafts) in libraries. A list gains `enable_minor_versions` (off for every list
// there is); each item table `minor_version` (0: every version so far is a major one); and a past
// version is keyed by its VersionId (512 × major + minor) instead of its major number, so the
// rows kept so far are renumbered.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const minorVersions = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

/** The column as this migration adds it; item-table.ts makes new tables the same way. */
export async function addMinorVersion(db: Kysely<any>, flavour: Flavour, table: string): Promise<void> {
  await sql`alter table ${sql.id(table)} add column minor_version ${sql.raw(columnType(flavour, 'int'))} not null default 0`.execute(db);
}

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  await sql`alter table lists add column enable_minor_versions ${sql.raw(columnType(flavour, 'int'))} not null default 0`.execute(db);
  const tables = await db.selectFrom('lists').select('table_name').execute();
  for (const { table_name: table } of tables) await addMinorVersion(db, flavour, String(table));
  await sql`update item_versions set ui_version = ui_version * 512`.execute(db);
}
