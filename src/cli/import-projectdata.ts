// `spemu import-projectdata <site> <file-or-folder>`: loads pages exported from Project Online's
// ProjectData feed into a PWA site of the workspace (src/projectdata/import.ts), with
// progress on stderr. Run it again after a stop: finished files are skipped, a half-done one
// resumes after its last committed batch.

import { sql } from 'kysely';
import { ConfigError } from '../config.ts';
import { migrateToLatest } from '../store/sql/migrate.ts';
import { SqlStore } from '../store/sql/sql-store.ts';
import { importProjectData, type ImportProgress } from '../services/projectdata-import.ts';
import { readArguments, type Command } from './command.ts';
import { DATABASE_FLAGS, DATABASE_USAGE, openDatabase } from './database.ts';

export const IMPORT_PROJECTDATA_USAGE = `Usage: spemu import-projectdata <site> <file-or-folder> [--set <EntitySet>] [--dates online|onprem] [--db <file|url>] [--data <dir>] [--quiet]

Loads ProjectData rows into the PWA site <site> (a server-relative URL such as /sites/pwa; the
site must exist). <file-or-folder> is one .json (or .json.gz) file or a folder of them: pages
saved from GET …/_api/ProjectData/<Set>?$format=json (verbose or JSON light, /Date(…)/ or ISO
dates), an object of sets ({"Projects":[…],"Tasks":[…]}) or a bare array. A file's entity set
comes from its odata.metadata, its rows' __metadata.type, or its name (Tasks-0001.json).
Rows replace rows with the same key. Stop a SQLite server first, or restart it afterwards.

  --set <EntitySet>       the set of files that do not say which (e.g. Tasks)
  --dates online|onprem   date style if the site is not a PWA yet (default online)
${DATABASE_USAGE}
  --quiet                 no progress on stderr`;

export const importProjectDataCommand: Command = {
  async run(argv, env) {
    const flags = { ...DATABASE_FLAGS, set: { type: 'string' }, dates: { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean' } } as const;
    const { values, positionals } = readArguments(argv, flags, IMPORT_PROJECTDATA_USAGE);
    if (values.help) { console.log(IMPORT_PROJECTDATA_USAGE); return 0; }
    if (positionals.length !== 2) throw new ConfigError(`Name a site and a file or folder.\n\n${IMPORT_PROJECTDATA_USAGE}`);
    const [site, path] = positionals as [string, string];
    if (values.dates !== undefined && values.dates !== 'online' && values.dates !== 'onprem') throw new ConfigError('--dates is online or onprem.');
    const database = await openDatabase(values, env, { create: false });
    const { db, flavour } = database.connection;
    await migrateToLatest(db, flavour);
    const store = new SqlStore(db, flavour, { onSchemaChange: database.clearStatementCache ?? (() => {}) });
    const started = performance.now();
    const quiet = values.quiet === true;
    // On a terminal the line rewrites itself; in a log, each report is a line of its own.
    const show = (p: ImportProgress) => {
      if (quiet) return;
      const rate = p.total / Math.max(0.001, (performance.now() - started) / 1000);
      process.stderr.write(`${p.file}${p.set ? ` (${p.set})` : ''}: ${p.rows.toLocaleString('en-US')} rows; ${p.total.toLocaleString('en-US')} in all, ${Math.round(rate).toLocaleString('en-US')} rows/s${p.done || !process.stderr.isTTY ? '\n' : '\r'}`);
    };
    try {
      const summary = await importProjectData(store, site, path, {
        set: values.set as string | undefined, onProgress: show,
        siteOptions: { dates: values.dates === 'onprem' ? 'onprem' : 'online', pageSizes: {}, readers: [] },
      });
      // Fresh statistics, so PostgreSQL pages the new rows by their keys at once (not after autovacuum's first analyze).
      if (flavour === 'postgres') await sql`analyze`.execute(db);
      const seconds = (performance.now() - started) / 1000;
      const sets = Object.entries(summary.bySet).map(([name, rows]) => `${name} ${rows.toLocaleString('en-US')}`).join(', ');
      console.error(`imported ${summary.rows.toLocaleString('en-US')} rows from ${summary.files} file${summary.files === 1 ? '' : 's'} in ${seconds.toFixed(1)} s`
        + `${sets ? ` (${sets})` : ''}${summary.skipped ? `; ${summary.skipped} file${summary.skipped === 1 ? '' : 's'} already imported, skipped` : ''}`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
