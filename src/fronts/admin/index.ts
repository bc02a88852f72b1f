// Front: spemu's own administration endpoints under `/_spemu`: health, and fault injection
// and throttling at run time (faults.ts); the webhook queue joins it.

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { registerFaults } from './faults.ts';

export const adminFront: FastifyPluginAsync<{ deps: FrontDeps }> = async (app, { deps }) => {
  // `pid` tells the processes of `--workers` apart (a connection stays with one of them).
  app.get('/_spemu/health', async () => ({ status: 'ok', pid: process.pid }));
  registerFaults(app, deps);
};
