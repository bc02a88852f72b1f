// The peer a user would pick for a quick mock API: json-server (0.17, on express) serving the
// same record as seed endpoint 1 with its author expanded (`/items/1?_expand=author`), from a
// JSON file it keeps in memory, request logging off.
//
//   node --import tsx bench/servers/json-server.ts   → READY <url>

import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
// json-server 0.17 ships CommonJS without types.
const jsonServer = require('json-server') as {
  create(): { use(...handlers: unknown[]): void; listen(port: number, host: string, cb: () => void): { address(): AddressInfo } };
  defaults(options: { logger: boolean }): unknown[];
  router(db: object): unknown;
};

const db = {
  authors: [{ id: 1, Title: 'Alice Adams', LastName: 'Adams' }, { id: 2, Title: 'Bob Baker', LastName: 'Baker' }],
  items: [{ id: 1, Title: 'Write spec', authorId: 1, editorId: 2 }],
};
const app = jsonServer.create();
app.use(jsonServer.defaults({ logger: false }));
app.use(jsonServer.router(db));
const server = app.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${server.address().port}`));

process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
