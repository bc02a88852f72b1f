// spemu in a child process of its own, so the server and the load generator each get a
// core. Options arrive as one JSON argument; `READY <url>` on stdout says it listens.

import { startServer, type ServerOptions } from '../../src/index.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
const server = await startServer(options);
console.log(`READY ${server.url}`);

// Exit through process.exit so that `--cpu-prof` writes its profile.
let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close().catch(() => {});
  process.exit(0);
}
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
