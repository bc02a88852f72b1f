// Front: spemu's own administration endpoints under `/_spemu`: health; fault injection and
// throttling at run time (faults.ts, site owners only); the list webhook queue (webhooks.ts:
// `GET /_spemu/webhooks`, notifications waiting; `POST /_spemu/webhooks/flush`, send them now).

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { errorDialect } from '../../wire/dialect.ts';
import { errorResponse } from '../../wire/error-response.ts';
import { newRequestId } from '../../wire/headers.ts';
import { registerFaults } from './faults.ts';
import { registerWebhooks } from './webhooks.ts';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const adminFront: FastifyPluginAsync<{ deps: FrontDeps }> = async (app, { deps }) => {
  // This plugin's routes are registered before the server's error handler: SharePoint's error body here too (401, 403, 400).
  app.setErrorHandler((error, req, reply) => {
    const response = errorResponse(error, newRequestId(), errorDialect(first(req.headers.accept), first(req.headers['odata-version'])), req.log, req.url);
    return reply.code(response.status).headers(response.headers).send(response.body);
  });
  // `pid` tells the processes of `--workers` apart (a connection stays with one of them).
  app.get('/_spemu/health', async () => ({ status: 'ok', pid: process.pid }));
  registerFaults(app, deps);
  registerWebhooks(app, deps);
};
