// `/_spemu/webhooks`: the list webhook queue. GET lists the notifications waiting; POST
// `/_spemu/webhooks/flush` sends them now (retries waiting included), after purging expired
// subscriptions. Any directory user may call them (the credentials any API call takes): they
// show notification URLs, without their query strings.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { loggableUrl } from '../../services/webhooks/url-policy.ts';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function registerWebhooks(app: FastifyInstance, deps: FrontDeps): void {
  /** SharePoint's 401 (through the plugin's error handler) unless the caller signs in. */
  const signedIn = (req: FastifyRequest) => deps.authenticator.identify({ authorization: first(req.headers.authorization), cookie: first(req.headers.cookie) });

  app.get('/_spemu/webhooks', async (req) => {
    await signedIn(req);
    const pending = await deps.store.subscriptions.pending();
    return { pending: pending.map((p) => ({ ...p, notificationUrl: loggableUrl(p.notificationUrl) })) };
  });

  app.post('/_spemu/webhooks/flush', async (req) => {
    await signedIn(req);
    const purged = await deps.store.subscriptions.purgeExpired(new Date().toISOString());
    const result = deps.webhookDelivery ? await deps.webhookDelivery.round({ now: true }) : { delivered: 0, retrying: 0, dropped: 0 };
    return { ...result, expiredSubscriptions: purged };
  });
}
