// `spemu migrate`: applies pending schema migrations and exits, so operators can migrate a
// shared PostgreSQL database once, before rolling out instances of a new version.

import { migrate, migrationNames, appliedMigrations } from '../store/transfer/schema.ts';
import { readArguments, type Command } from './command.ts';
import { DATABASE_FLAGS, DATABASE_USAGE, openDatabase } from './database.ts';

export const MIGRATE_USAGE = `Usage: spemu migrate [--db <file|url>] [--data <dir>]

Applies the schema migrations the database lacks, prints which, and exits. (The server
also migrates at start; this lets you do it first, once, for many instances.)

${DATABASE_USAGE}`;

export const migrateCommand: Command = {
  async run(argv, env) {
    const { values, positionals } = readArguments(argv, { ...DATABASE_FLAGS, help: { type: 'boolean' } }, MIGRATE_USAGE);
    if (values.help || positionals.length) { console.log(MIGRATE_USAGE); return positionals.length ? 1 : 0; }
    const database = await openDatabase(values, env, { create: true });
    try {
      const { db, flavour } = database.connection;
      const applied = await migrate(db, flavour);
      const now = (await appliedMigrations(db, flavour)).at(-1);
      if (applied.length) console.log(`Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${database.name}:\n${applied.map((m) => `  ${m}`).join('\n')}`);
      else console.log(`Nothing to apply: ${database.name} is at ${now} (${migrationNames().length} migrations, the latest).`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
