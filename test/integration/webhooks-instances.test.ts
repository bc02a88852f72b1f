// Two spemu instances on one database deliver each webhook notification once (issue #10): on
// the PostgreSQL leg two servers share a database (claims use FOR UPDATE SKIP LOCKED), on the
// SQLite leg two share a file as --workers do. Twenty subscriptions, each to its own receiver
// path, are notified by one item write; both instances' workers race for the queue (and both
// are asked to flush at once): every path gets exactly one notification per write.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sharedTestDatabase, startTestServer, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const backend = testBackend();
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

const SUBSCRIPTIONS = 20;

describe(`two instances deliver each notification once (${backend})`, () => {
  it('every subscription is notified exactly once per write', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const database = await sharedTestDatabase('spemu-webhook-instances-');
    cleanups.push(() => database.drop());
    const options = { db: database.db, shared: true, tokenSecret: randomBytes(32).toString('base64url'), webhookDelay: 300 };
    const servers: TestServer[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await startTestServer(options);
      servers.push(s);
      cleanups.push(() => s.close());
    }
    const api = (i: number) => `${servers[i]!.site('/sites/dev')}/_api/web/lists/getbytitle('Tasks')`;
    const post = async (url: string, body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(res.status, 201, await res.clone().text());
      return res.json() as Promise<{ id: string }>;
    };
    for (let n = 0; n < SUBSCRIPTIONS; n++) {
      // Made through either instance: each must see the other's subscriptions.
      await post(`${api(n % 2)}/subscriptions`, {
        resource: api(0), notificationUrl: `${receiver.url}/s${n}`, expirationDateTime: new Date(Date.now() + 86_400_000).toISOString(),
      });
    }
    const validations = receiver.requests.length;
    for (let round = 1; round <= 3; round++) {
      await post(`${api(round % 2)}/items`, { Title: `round ${round}` });
      // Both instances flush at the moment their workers also poll.
      await new Promise((r) => setTimeout(r, 250));
      await Promise.all(servers.map((s) => fetch(`${s.url}/_spemu/webhooks/flush`, { method: 'POST' }).then((r) => r.arrayBuffer())));
      await receiver.waitForNotifications(SUBSCRIPTIONS * round);
      await new Promise((r) => setTimeout(r, 800));
      const counts = new Map<string, number>();
      for (const n of receiver.notifications()) counts.set(n.path, (counts.get(n.path) ?? 0) + 1);
      assert.equal(receiver.requests.length - validations, SUBSCRIPTIONS * round, `round ${round}: one POST per subscription`);
      for (let n = 0; n < SUBSCRIPTIONS; n++) assert.equal(counts.get(`/s${n}`), round, `/s${n} after round ${round}`);
    }
  });
});
