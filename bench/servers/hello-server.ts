// The baseline: the least an HTTP JSON endpoint can cost on this machine and Node version.
// Runs as a child process so it never shares an event loop with the load generator.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ hello: 'world' });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});

server.listen(0, '127.0.0.1', () => {
  console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

// The parent holds an IPC channel open; when it goes (even if killed), so do we.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
