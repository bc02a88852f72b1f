// The `spemu` command: read flags, start the server, print the banner, stop cleanly.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ConfigError, startServer, TenantFileError } from '../index.ts';
import type { TenantFile } from '../tenant/types.ts';
import { banner } from './banner.ts';
import { readCommandLine, USAGE } from './options.ts';
import { tokenCommand } from './token.ts';

const DEMO_TENANT = fileURLToPath(new URL('../../demo/tenant.json', import.meta.url));
const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));

async function main(): Promise<number> {
  if (process.argv[2] === 'token') {
    console.log(await tokenCommand(process.argv.slice(3), process.env));
    return 0;
  }
  const request = readCommandLine(process.argv.slice(2), process.env);
  if (request.help) { console.log(USAGE); return 0; }
  if (request.version) { console.log((JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version); return 0; }
  const options = { ...request.options };
  if (options.seed === undefined) options.seedIfEmpty = DEMO_TENANT;
  const server = await startServer(options);
  const seedPath = typeof options.seed === 'string' ? resolve(options.seed) : DEMO_TENANT;
  const demo = seedPath === DEMO_TENANT && server.tenant.name === 'contoso'
    ? JSON.parse(readFileSync(DEMO_TENANT, 'utf8')) as TenantFile : undefined;
  console.log(banner(server, demo));
  await new Promise<void>((done) => {
    const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); done(); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  if (e instanceof ConfigError || e instanceof TenantFileError) console.error(`spemu: ${e.message}`);
  else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`spemu: ${(e as Error).message}. Choose another --port (0 picks a free one).`);
  else console.error('spemu: could not start:', e);
  process.exitCode = 1;
});
