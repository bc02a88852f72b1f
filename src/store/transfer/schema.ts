// Migrations as `spemu migrate` and import use them: to a named version, reporting what
// was applied. The migrations themselves are the server's (src/store/sql/migrate.ts).

import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely } from 'kysely';
import { migrations } from '../sql/migrate.ts';
import type { SqlFlavour } from '../sql/flavour.ts';
import { tableNames } from './catalog.ts';

/** This spemu's migrations, in the order they apply. */
export const migrationNames = (): string[] => Object.keys(migrations('sqlite')).sort();

/** Migrations the database has applied, in order ([] for a database spemu never touched). */
export async function appliedMigrations(db: Kysely<any>, flavour: SqlFlavour): Promise<string[]> {
  if (!(await tableNames(db, flavour)).includes(DEFAULT_MIGRATION_TABLE)) return [];
  const { rows } = await sql<{ name: string }>`select name from ${sql.id(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
  return rows.map((r) => r.name);
}

export class SchemaError extends Error {}

/**
 * Applies pending migrations (up to `to`, else all) and returns the names applied. A
 * database migrated by a newer spemu is refused: its schema is not one this one knows.
 */
export async function migrate(db: Kysely<any>, flavour: SqlFlavour, to?: string): Promise<string[]> {
  const known = new Set(migrationNames());
  const unknown = (await appliedMigrations(db, flavour)).filter((m) => !known.has(m));
  if (unknown.length) throw new SchemaError(`The database has migrations this spemu does not know (${unknown.join(', ')}): it was migrated by a newer spemu.`);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(flavour) } });
  const { error, results } = to === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(to);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown');
    throw new SchemaError(`migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success' && r.direction === 'Up').map((r) => r.migrationName);
}
