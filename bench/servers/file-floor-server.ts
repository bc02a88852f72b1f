// The floor under spemu's file transfers: the least a node:http server does to keep a file
// as spemu's blob store keeps it — the request body hashed (SHA-256) and written to a file,
// fsync'd — and to send it back (the file piped to the response). No routing, no
// authentication, no database. The body is piped into a write stream, so reading the socket
// and writing the disk overlap (an awaited write per chunk measured ~35% slower here). What
// spemu takes beyond this is its own cost; what this takes beyond a disk copy is HTTP's over
// loopback, on this machine.
//
//   node --import tsx bench/servers/file-floor-server.ts <folder>   → READY <url>
//   POST /<name> (body) → 200 <sha256>;  GET /<name> → the bytes

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const folder = process.argv[2];
if (!folder) throw new Error('usage: file-floor-server.ts <folder>');
const pathOf = (url: string | undefined) => join(folder, (url ?? '/').slice(1).replace(/[^\w.-]/g, '_') || 'file');

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    createReadStream(pathOf(req.url)).on('error', () => { res.statusCode = 404; res.end(); }).pipe(res);
    return;
  }
  const path = pathOf(req.url);
  const hash = createHash('sha256');
  const hashing = new Transform({ transform(chunk: Buffer, _encoding, done) { hash.update(chunk); done(null, chunk); } });
  pipeline(req, hashing, createWriteStream(path, { highWaterMark: 1024 * 1024 }))
    .then(async () => {
      const file = await open(path, 'r+');
      try { await file.sync(); } finally { await file.close(); }
      res.end(hash.digest('hex'));
    })
    .catch((e: unknown) => { res.statusCode = 500; res.end(String(e)); });
});

server.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
