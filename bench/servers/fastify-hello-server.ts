// A second reference point: the same small JSON body through fastify, the framework spemu
// runs on. The gap between this and node:http is the framework's; the rest is spemu's.

import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/*', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`READY ${address}`);

process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
