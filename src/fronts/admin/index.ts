// Front: spemu's own administration endpoints under `/_spemu` (health today; the webhook
// queue and fault injection join it).

import type { FastifyPluginAsync } from 'fastify';

export const adminFront: FastifyPluginAsync = async (app) => {
  // `pid` tells the processes of `--workers` apart (a connection stays with one of them).
  app.get('/_spemu/health', async () => ({ status: 'ok', pid: process.pid }));
};
