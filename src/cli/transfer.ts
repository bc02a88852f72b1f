// `spemu export <file>` and `spemu import <file>`: a whole workspace (every table: directory,
// sites, lists, items, photos, …) to a line file and back, between SQLite and PostgreSQL in
// either direction. Progress goes to stderr, so `spemu export - | …` can stream the file.

import { existsSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { exportDatabase } from '../store/transfer/export.ts';
import { importDatabase } from '../store/transfer/import.ts';
import { Progress } from '../store/transfer/progress.ts';
import { packageVersion, readArguments, type Command } from './command.ts';
import { DATABASE_FLAGS, DATABASE_USAGE, openDatabase } from './database.ts';

export const EXPORT_USAGE = `Usage: spemu export <file> [--db <file|url>] [--data <dir>] [--quiet]

Writes the whole workspace (tenant, directory, photos, sites, lists, items, files, …) to <file>,
one JSON value per line; gzip-compressed when <file> ends in .gz; '-' writes to stdout.
The server may keep running: the file is one consistent snapshot.

${DATABASE_USAGE}
  --quiet                 no progress on stderr`;

export const IMPORT_USAGE = `Usage: spemu import <file> [--db <file|url>] [--data <dir>] [--force] [--quiet]

Loads a file written by \`spemu export\` into the database (SQLite or PostgreSQL, either way
round), then migrates it to this spemu's schema. The target must hold no workspace.
Stop the instances serving the target first. The token secret is not in the file: give
the new instances the old one (--token-secret or the workspace's token-secret file).

${DATABASE_USAGE}
  --force                 replace a workspace the target holds (drops spemu's tables there, only those)
  --quiet                 no progress on stderr`;

function fileArgument(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new ConfigError(`Name one file.\n\n${usage}`);
  return positionals[0]!;
}

export const exportCommand: Command = {
  async run(argv, env) {
    const { values, positionals } = readArguments(argv, { ...DATABASE_FLAGS, quiet: { type: 'boolean' }, help: { type: 'boolean' } }, EXPORT_USAGE);
    if (values.help) { console.log(EXPORT_USAGE); return 0; }
    const file = fileArgument(positionals, EXPORT_USAGE);
    const database = await openDatabase(values, env, { create: false });
    try {
      const progress = new Progress('exported', process.stderr, values.quiet === true);
      progress.note(`exporting ${database.name} to ${file}`);
      await exportDatabase(database.connection, file, { progress, spemuVersion: packageVersion(), bytes: database.bytes });
      return 0;
    } finally {
      await database.close();
    }
  },
};

export const importCommand: Command = {
  async run(argv, env) {
    const { values, positionals } = readArguments(argv, { ...DATABASE_FLAGS, force: { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean' } }, IMPORT_USAGE);
    if (values.help) { console.log(IMPORT_USAGE); return 0; }
    const file = fileArgument(positionals, IMPORT_USAGE);
    if (file !== '-' && !existsSync(file)) throw new ConfigError(`There is no file ${file}.`);
    const database = await openDatabase(values, env, { create: true });
    try {
      const progress = new Progress('imported', process.stderr, values.quiet === true);
      progress.note(`into ${database.name}`);
      const summary = await importDatabase(database.connection, file, {
        force: values.force === true, progress, clearStatementCache: database.clearStatementCache, bytes: database.bytes,
      });
      if (values.force && summary.dropped) progress.note(`(--force: dropped ${summary.dropped} spemu tables first)`);
      if (summary.migratedAfter.length) progress.note(`then migrated: ${summary.migratedAfter.join(', ')}`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
