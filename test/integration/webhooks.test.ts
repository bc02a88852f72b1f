// List webhooks (issue #10) through an unmodified @pnp/sp 4.x client and a real receiver (a
// node http server, test/helpers/webhook-receiver.ts): subscriptions.add runs the validation
// handshake during the call, getById/update/delete, SharePoint's errors for a bad expiry and
// a URL that fails validation; notifications after item, file and folder writes, batched per
// subscription, with SharePoint's body and clientState echoed; a receiver answering 500 gets
// the notification again after the retry interval, until the retries are spent; expired
// subscriptions are neither notified nor kept; the admin queue endpoints.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/subscriptions/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { startReceiver, sharePointContract, type Receiver } from '../helpers/webhook-receiver.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-subscription-types.ts';

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

describe('PnPjs list webhooks against spemu, with a real receiver', () => {
  const spemu = useTestServer({ webhookDelay: 0, webhookRetryInterval: 300, webhookRetries: 2 });
  let sp: SPFI;
  let receiver: Receiver;
  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    receiver = await startReceiver();
  });
  after(async () => { await receiver.close(); });
  const flush = async () => {
    const r = await fetch(`${spemu.server.url}/_spemu/webhooks/flush`, { method: 'POST' });
    assert.equal(r.status, 200);
    return r.json() as Promise<{ delivered: number; retrying: number; dropped: number; expiredSubscriptions: number }>;
  };
  const pending = async () => ((await (await fetch(`${spemu.server.url}/_spemu/webhooks`)).json()) as { pending: Array<Record<string, unknown>> }).pending;

  it('add validates the URL during the call, then getById, update and delete', async () => {
    const list = sp.web.lists.getByTitle('Documents');
    const before = receiver.requests.length;
    const added = await list.subscriptions.add(`${receiver.url}/hooks/a?code=k%3D1`, days(120), 'pnp client state') as Record<string, unknown>;
    // The handshake: a POST with an empty body and the token appended to the URL's own query.
    const validation = receiver.requests[before]!;
    assert.equal(validation.method, 'POST');
    assert.equal(validation.path, '/hooks/a');
    assert.equal(validation.query.get('code'), 'k=1');
    assert.match(validation.query.get('validationtoken') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(validation.body, '');
    const listId = (await list.select('Id')()).Id;
    assert.match(String(added.id), /^[0-9a-f-]{36}$/);
    assert.equal(added.resource, listId);
    assert.equal(added.clientState, 'pnp client state');
    assert.equal(added.notificationUrl, `${receiver.url}/hooks/a?code=k%3D1`);

    const id = String(added.id);
    const read = await list.subscriptions.getById(id)() as Record<string, unknown>;
    assert.equal(read.id, id);
    assert.equal(Date.parse(String(read.expirationDateTime)), Date.parse(String(added.expirationDateTime)));
    assert.deepEqual((await list.subscriptions() as Array<{ id: string }>).map((s) => s.id), [id]);

    const renewed = days(180);
    await list.subscriptions.getById(id).update(renewed, undefined, 'new state');
    const after = await list.subscriptions.getById(id)() as Record<string, unknown>;
    assert.equal(Date.parse(String(after.expirationDateTime)), Date.parse(renewed));
    assert.equal(after.clientState, 'new state');

    await list.subscriptions.getById(id).delete();
    assert.deepEqual(await list.subscriptions(), []);
    assert.equal((await failure(list.subscriptions.getById(id)())).status, 404);
  });

  it('refuses an expiry past 180 days or gone, and a URL whose receiver does not echo the token', async () => {
    const list = sp.web.lists.getByTitle('Documents');
    for (const expiry of [days(181), days(-1), 'tomorrow']) {
      const e = await failure(list.subscriptions.add(`${receiver.url}/x`, expiry));
      assert.equal(e.status, 400);
      assert.equal(e.code, '-1, System.ArgumentException');
    }
    receiver.respond = (req, res) => { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('not the token'); };
    try {
      const e = await failure(list.subscriptions.add(`${receiver.url}/wrong`, days(10)));
      assert.deepEqual(e, { status: 400, code: '-1, System.InvalidOperationException', message: `Failed to validate the notification URL '${receiver.url}/wrong'.` });
      receiver.respond = (req, res) => { res.writeHead(404); res.end(); };
      assert.equal((await failure(list.subscriptions.add(`${receiver.url}/gone`, days(10)))).status, 400);
    } finally {
      receiver.respond = sharePointContract;
    }
    assert.deepEqual(await list.subscriptions(), []);
  });

  it('notifies after an item is added, updated and deleted: SharePoint\'s body, clientState echoed, batched per subscription', async () => {
    const list = sp.web.lists.getByTitle('Tasks');
    const listId = (await list.select('Id')()).Id;
    const web = await sp.web.select('Id')();
    const sub = await list.subscriptions.add(`${receiver.url}/items`, days(30), 'state-1') as { id: string };
    const seen = receiver.notifications().length;
    const item = await list.items.add({ Title: 'Hello' });
    await receiver.waitForNotifications(seen + 1);
    const [note] = receiver.notifications().slice(seen);
    assert.equal(note!.path, '/items');
    assert.equal(note!.value.length, 1);
    assert.deepEqual(Object.keys(note!.value[0]!).sort(), ['clientState', 'expirationDateTime', 'resource', 'siteUrl', 'subscriptionId', 'tenantId', 'webId']);
    assert.equal(note!.value[0]!.subscriptionId, sub.id);
    assert.equal(note!.value[0]!.clientState, 'state-1');
    assert.equal(note!.value[0]!.resource, listId);
    assert.equal(note!.value[0]!.siteUrl, '/sites/dev');
    assert.equal(note!.value[0]!.webId, web.Id);
    assert.match(String(note!.value[0]!.tenantId), /^[0-9a-f-]{36}$/);
    const request = receiver.requests.find((r) => r.body && r.path === '/items')!;
    assert.match(String(request.headers['content-type']), /^application\/json/);

    await list.items.getById(item.Id).update({ Title: 'Changed' });
    await receiver.waitForNotifications(seen + 2);
    await list.items.getById(item.Id).delete();
    await receiver.waitForNotifications(seen + 3);
    assert.ok(receiver.notifications().slice(seen).every((n) => n.value.length === 1 && n.value[0]!.subscriptionId === sub.id));
    await list.subscriptions.getById(sub.id).delete();
  });

  it('files and folders in a subscribed library notify too; a list nobody subscribed to does not', async () => {
    const docs = sp.web.lists.getByTitle('Documents');
    const sub = await docs.subscriptions.add(`${receiver.url}/docs`, days(30)) as { id: string };
    const seen = receiver.notifications().length;
    await sp.web.getFolderByServerRelativePath('/sites/dev/Shared Documents').folders.addUsingPath('Hooked');
    await receiver.waitForNotifications(seen + 1);
    await sp.web.getFolderByServerRelativePath('/sites/dev/Shared Documents/Hooked').files.addUsingPath('a.txt', 'hello');
    await receiver.waitForNotifications(seen + 2);
    await sp.web.lists.getByTitle('Tasks').items.add({ Title: 'unwatched' });
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(receiver.notifications().slice(seen).map((n) => n.path), ['/docs', '/docs']);
    await docs.subscriptions.getById(sub.id).delete();
  });

  it('a receiver answering 500 gets the notification again after the retry interval; after the retries it is dropped', async () => {
    const list = sp.web.lists.getByTitle('Tasks');
    const sub = await list.subscriptions.add(`${receiver.url}/flaky`, days(30)) as { id: string };
    let calls = 0;
    receiver.respond = (req, res) => {
      if (req.query.has('validationtoken')) return sharePointContract(req, res);
      calls++;
      res.writeHead(calls === 1 ? 500 : 200);
      res.end();
    };
    try {
      const seen = receiver.notifications().length;
      await list.items.add({ Title: 'retry me' });
      await receiver.waitForNotifications(seen + 2);
      const [first, second] = receiver.requests.filter((r) => r.path === '/flaky' && r.body);
      assert.ok(second!.at - first!.at >= 250, `retried ${second!.at - first!.at} ms later`);
      assert.deepEqual(await pending(), [], 'delivered on the retry: nothing left');

      // Always failing: the first attempt and 2 retries, then dropped.
      receiver.respond = (req, res) => {
        if (req.query.has('validationtoken')) return sharePointContract(req, res);
        res.writeHead(503); res.end();
      };
      const before = receiver.notifications().length;
      await list.items.add({ Title: 'never delivered' });
      await receiver.waitForNotifications(before + 3);
      await new Promise((r) => setTimeout(r, 900));
      assert.equal(receiver.notifications().length, before + 3);
      assert.deepEqual(await pending(), []);
    } finally {
      receiver.respond = sharePointContract;
      await list.subscriptions.getById(sub.id).delete();
    }
  });

  it('an expired subscription is not notified, and the flush purges it', async () => {
    const list = sp.web.lists.getByTitle('Tasks');
    const sub = await list.subscriptions.add(`${receiver.url}/short`, new Date(Date.now() + 1500).toISOString()) as { id: string };
    await new Promise((r) => setTimeout(r, 1600));
    const seen = receiver.notifications().length;
    await list.items.add({ Title: 'after expiry' });
    const flushed = await flush();
    assert.equal(flushed.expiredSubscriptions, 1);
    assert.equal(receiver.notifications().length, seen);
    assert.equal((await failure(list.subscriptions.getById(sub.id)())).status, 404);
  });

  it('a deleted list takes its subscriptions along: a list made after it has none, and the flush purges them', async () => {
    const made = await sp.web.lists.add('Short lived', '', 100);
    const list = sp.web.lists.getById(made.Id);
    await list.subscriptions.add(`${receiver.url}/short-lived`, days(5));
    await list.delete();
    // On SQLite the next list may get the deleted one's row id: it must not inherit anything.
    const next = await sp.web.lists.add('Next list', '', 100);
    assert.deepEqual(await sp.web.lists.getById(next.Id).subscriptions(), []);
    const seen = receiver.notifications().length;
    await sp.web.lists.getById(next.Id).items.add({ Title: 'not watched' });
    assert.equal((await flush()).expiredSubscriptions, 1);
    assert.equal(receiver.notifications().length, seen);
    await sp.web.lists.getById(next.Id).delete();
  });

  it('the receiver the upstream PnPjs suite runs (scripts/upstream-pnpjs/receiver.mjs) passes validation', async () => {
    const script = fileURLToPath(new URL('../../scripts/upstream-pnpjs/receiver.mjs', import.meta.url));
    const child = spawn(process.execPath, [script, '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => { out += String(d); const m = /receiver on (\S+)/.exec(out); if (m) resolve(m[1]!); });
        child.on('exit', () => reject(new Error(`receiver.mjs exited: ${out}`)));
      });
      const list = sp.web.lists.getByTitle('Documents');
      const added = await list.subscriptions.add(url, days(120), 'pnp client state') as { id: string };
      await list.subscriptions.getById(added.id).update(days(180), url, 'pnp client state');
      await list.subscriptions.getById(added.id).delete();
    } finally {
      child.kill();
    }
  });

  it('the admin queue needs credentials', async () => {
    // The test server lets requests without credentials act as its owner; a bad bearer token is refused.
    const r = await fetch(`${spemu.server.url}/_spemu/webhooks`, { headers: { Authorization: 'Bearer not-a-token' } });
    assert.equal(r.status, 401);
  });
});

describe('list webhooks with SharePoint\'s default delay: batching, and the admin queue', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let receiver: Receiver;
  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    receiver = await startReceiver();
  });
  after(async () => { await receiver.close(); });

  it('changes wait; several changes make one notification per subscription; subscriptions to one URL share a request', async () => {
    const tasks = sp.web.lists.getByTitle('Tasks');
    const docs = sp.web.lists.getByTitle('Documents');
    const a = await tasks.subscriptions.add(`${receiver.url}/shared`, days(10), 'a') as { id: string };
    const b = await docs.subscriptions.add(`${receiver.url}/shared`, days(10), 'b') as { id: string };
    const c = await tasks.subscriptions.add(`${receiver.url}/own`, days(10), 'c') as { id: string };
    for (let i = 0; i < 3; i++) await tasks.items.add({ Title: `change ${i}` });
    await sp.web.getFolderByServerRelativePath('/sites/dev/Shared Documents').files.addUsingPath('batched.txt', 'x');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.notifications().length, 0, 'nothing sent before --webhook-delay (60 s)');
    const queue = await (await fetch(`${spemu.server.url}/_spemu/webhooks`)).json() as { pending: Array<{ subscriptionId: string; attempts: number; notificationUrl: string }> };
    assert.deepEqual(queue.pending.map((p) => p.subscriptionId).sort(), [a.id, b.id, c.id].sort());
    assert.ok(queue.pending.every((p) => p.attempts === 0 && p.notificationUrl.startsWith(receiver.url)));

    const flushed = await (await fetch(`${spemu.server.url}/_spemu/webhooks/flush`, { method: 'POST' })).json() as Record<string, number>;
    assert.equal(flushed.delivered, 3);
    const byPath = new Map(receiver.notifications().map((n) => [n.path, n.value.map((v) => v.clientState).sort()]));
    assert.equal(receiver.notifications().length, 2, 'one request per notification URL');
    assert.deepEqual(byPath.get('/shared'), ['a', 'b']);
    assert.deepEqual(byPath.get('/own'), ['c']);
    assert.deepEqual((await (await fetch(`${spemu.server.url}/_spemu/webhooks`)).json() as { pending: unknown[] }).pending, []);
  });
});
