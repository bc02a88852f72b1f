// The `spemu` command: `spemu [flags]` serves (read flags, start the server, print the
// banner, stop cleanly); `spemu <command> …` runs one of the maintenance commands (commands.ts).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ConfigError } from '../config.ts';
import type { TenantFile } from '../tenant/types.ts';
import { packageVersion } from './command.ts';
import { COMMANDS, commandList } from './commands.ts';
import { readCommandLine, USAGE } from './options.ts';
import { isWorker, runPrimary, runWorker } from './workers.ts';
import { availableParallelism } from 'node:os';
import type { RunningServer } from '../index.ts';

const DEMO_TENANT = fileURLToPath(new URL('../../demo/tenant.json', import.meta.url));

async function serve(argv: string[]): Promise<number> {
  const request = readCommandLine(argv, process.env);
  if (request.help) { console.log(USAGE); return 0; }
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

/**
 * Errors whose message is written for the operator (bad flags, a bad tenant or export file, a schema mismatch): printed
 * without a stack. By class, or by name when a worker's start failure reached the primary (workers.ts WorkerStartError).
 */
const OPERATOR_ERRORS = new Set(['ConfigError', 'TenantFileError', 'ImportError', 'SchemaError']);

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  if (e instanceof ConfigError || (e instanceof Error && (OPERATOR_ERRORS.has(e.constructor.name) || OPERATOR_ERRORS.has(e.name)))) console.error(`spemu: ${(e as Error).message}`);
  else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`spemu: ${(e as Error).message}. Choose another --port (0 picks a free one).`);
  else if ((e as { status?: unknown }).status === 503) console.error('spemu: the database is unavailable (not running, unreachable, or too busy); try again.');
  else console.error('spemu: failed:', e);
  process.exitCode = 1;
});
