// Front: spemu's own administration endpoints under `/_spemu`: health, and the list webhook
// queue (`GET /_spemu/webhooks`: notifications waiting; `POST /_spemu/webhooks/flush`: send
// them now, retries waiting included, after purging expired subscriptions). The queue
// endpoints take the credentials any API call takes (any directory user): they show
// notification URLs, without their query strings.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { isReportable, toSpError } from '../../wire/errors.ts';
import { loggableUrl } from '../../services/webhooks/url-policy.ts';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const adminFront: FastifyPluginAsync<{ deps?: FrontDeps | undefined }> = async (app, { deps }) => {
  // `pid` tells the processes of `--workers` apart (a connection stays with one of them).
  app.get('/_spemu/health', async () => ({ status: 'ok', pid: process.pid }));
  if (!deps) return;

  /** Runs `fn` for an authenticated caller; SharePoint's 401 (status, challenge) otherwise. */
  const signedIn = (fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      await deps.authenticator.identify({ authorization: first(req.headers.authorization), cookie: first(req.headers.cookie) });
    } catch (e) {
      if (!isReportable(e)) throw e;
      const error = toSpError(e);
      return reply.code(error.status).headers(error.headers).send({ error: { code: error.code, message: error.message } });
    }
    return fn(req, reply);
  };

  app.get('/_spemu/webhooks', signedIn(async () => {
    const pending = await deps.store.subscriptions.pending();
    return { pending: pending.map((p) => ({ ...p, notificationUrl: loggableUrl(p.notificationUrl) })) };
  }));

  app.post('/_spemu/webhooks/flush', signedIn(async () => {
    const purged = await deps.store.subscriptions.purgeExpired(new Date().toISOString());
    const result = deps.webhookDelivery ? await deps.webhookDelivery.round({ now: true }) : { delivered: 0, retrying: 0, dropped: 0 };
    return { ...result, expiredSubscriptions: purged };
  }));
};
