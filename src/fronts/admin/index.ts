// Front: spemu's own administration endpoints under `/_spemu` (health today; the webhook
// queue and fault injection join it).

import type { FastifyPluginAsync } from 'fastify';

export const adminFront: FastifyPluginAsync = async (app) => {
  app.get('/_spemu/health', async () => ({ status: 'ok' }));
};
