// The `spemu` command: `spemu [flags]` serves (read flags, start the server, print the
// banner, stop cleanly); `spemu <command> …` runs one of the maintenance commands below.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ConfigError } from '../config.ts';
import type { TenantFile } from '../tenant/types.ts';
import type { Command } from './command.ts';
import { packageVersion } from './command.ts';
import { readCommandLine, USAGE } from './options.ts';
import { isWorker, runPrimary, runWorker } from './workers.ts';
import { availableParallelism } from 'node:os';
import type { RunningServer } from '../index.ts';

const DEMO_TENANT = fileURLToPath(new URL('../../demo/tenant.json', import.meta.url));

/** `spemu <name> …`: a new command is one line here. Each is loaded only when run (the server's modules are not). */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  token: { summary: 'print a bearer token for a directory user', load: async () => (await import('./token.ts')).tokenCli },
  'identity-header': { summary: 'print the IDENTITY_HEADER of the managed-identity endpoint (--managed-identity)', load: async () => (await import('./identity-header.ts')).identityHeaderCli },
  'rotate-signing-key': { summary: 'make a new key for identity tokens (the old one verifies for a day)', load: async () => (await import('./rotate-signing-key.ts')).rotateSigningKeyCli },
  migrate: { summary: 'apply pending schema migrations and exit', load: async () => (await import('./migrate.ts')).migrateCommand },
  export: { summary: 'write the whole workspace to a file (NDJSON; .gz: gzip)', load: async () => (await import('./transfer.ts')).exportCommand },
  import: { summary: 'load a file written by export into an empty database', load: async () => (await import('./transfer.ts')).importCommand },
  webhooks: { summary: 'list the webhook notifications waiting, or flush them now (list|flush)', load: async () => (await import('./webhooks.ts')).webhooksCommand },
  'import-projectdata': { summary: 'load pages exported from Project Online\'s ProjectData feed into a PWA site', load: async () => (await import('./import-projectdata.ts')).importProjectDataCommand },
};

const commandList = () => Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(28)}${c.summary}`).join('\n');

async function serve(argv: string[]): Promise<number> {
  const request = readCommandLine(argv, process.env);
  if (request.help) { console.log(`${USAGE}\n\nCommands (spemu <command> --help for each):\n${commandList()}`); return 0; }
  if (request.version) { console.log(packageVersion()); return 0; }
  const options = { ...request.options };
  if (options.seed === undefined) options.seedIfEmpty = DEMO_TENANT;
  if (isWorker()) { await runWorker(options); return 0; }
  const { banner } = await import('./banner.ts');
  const seedPath = typeof options.seed === 'string' ? resolve(options.seed) : DEMO_TENANT;
  const demoOf = (server: Pick<RunningServer, 'tenant'>) => (seedPath === DEMO_TENANT && server.tenant.name === 'contoso'
    ? JSON.parse(readFileSync(DEMO_TENANT, 'utf8')) as TenantFile : undefined);
  // Every core by default; an in-memory database lives in one process.
  const workers = request.workers ?? (options.db === ':memory:' ? 1 : availableParallelism());
  if (workers > 1) {
    await runPrimary(options, workers, (server) => console.log(banner(server, demoOf(server), workers)));
    return 0;
  }
  const { startServer } = await import('../index.ts');
  const server = await startServer(options);
  console.log(banner(server, demoOf(server)));
  await new Promise<void>((done) => {
    const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); done(); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  if (name === undefined || name.startsWith('-')) return serve(process.argv.slice(2));
  const command = COMMANDS[name];
  if (!command) throw new ConfigError(`Unknown command '${name}'. Commands:\n${commandList()}\n\nOr serve: ${USAGE.split('\n')[0]}`);
  return (await command.load()).run(rest, process.env);
}

/** Errors whose message is written for the operator (bad flags, a bad tenant or export file, a schema mismatch): printed without a stack. */
const OPERATOR_ERRORS = new Set(['ConfigError', 'TenantFileError', 'ImportError', 'SchemaError']);

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  if (e instanceof ConfigError || (e instanceof Error && OPERATOR_ERRORS.has(e.constructor.name))) console.error(`spemu: ${(e as Error).message}`);
  else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`spemu: ${(e as Error).message}. Choose another --port (0 picks a free one).`);
  else if ((e as { status?: unknown }).status === 503) console.error('spemu: the database is unavailable (not running, unreachable, or too busy); try again.');
  else console.error('spemu: failed:', e);
  process.exitCode = 1;
});
