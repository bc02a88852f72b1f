// Outbound calls to webhook receivers are harmless wherever they point (issue #10): only
// http(s) URLs are called (a `file:` URL, another scheme or credentials in the URL are refused
// without a call), redirects are never followed (a receiver cannot bounce spemu to another
// host, during validation or delivery), a receiver that is silent or answers without end is
// cut off at the timeout or the size cap, and `--webhook-allow` limits the destinations —
// at subscription time and again at delivery.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/subscriptions/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { startReceiver, sharePointContract, type Receiver } from '../helpers/webhook-receiver.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-subscription-types.ts';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const VALIDATION_FAILED = '-1, System.InvalidOperationException';

describe('webhook outbound calls: SSRF guard', () => {
  let allowed: Receiver;
  let other: Receiver;
  before(async () => {
    allowed = await startReceiver();
    other = await startReceiver();
  });
  after(async () => { await allowed.close(); await other.close(); });
  // Only `allowed`'s port may be called (host:port pattern); `other` stands for an internal service.
  const spemu = useTestServer(() => ({
    webhookDelay: 0, webhookRetryInterval: 60_000, webhookTimeout: 700, webhookAllow: [`127.0.0.1:${new URL(allowed.url).port}`],
  }));
  let sp: SPFI;
  before(() => { sp = pnpFor(spemu.server.site('/sites/dev')); });
  const list = () => sp.web.lists.getByTitle('Tasks');

  it('refuses file:, other schemes and credentials in the URL, calling nothing', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'gopher://127.0.0.1:70/', `http://user:pw@${new URL(allowed.url).host}/x`, 'not a url', '/relative']) {
      const e = await failure(list().subscriptions.add(url, inDays(5)));
      assert.equal(e.status, 400, url);
      assert.equal(e.code, VALIDATION_FAILED, url);
      assert.equal(e.message, `Failed to validate the notification URL '${url}'.`);
    }
    assert.equal(allowed.requests.length + other.requests.length, 0);
    assert.deepEqual(await list().subscriptions(), []);
  });

  it('--webhook-allow: a destination outside the patterns is refused without a call', async () => {
    const e = await failure(list().subscriptions.add(`${other.url}/internal`, inDays(5)));
    assert.equal(e.code, VALIDATION_FAILED);
    assert.equal(other.requests.length, 0);
    // And `localhost` is another host name than the pattern's 127.0.0.1.
    const port = new URL(allowed.url).port;
    assert.equal((await failure(list().subscriptions.add(`http://localhost:${port}/x`, inDays(5)))).code, VALIDATION_FAILED);
    assert.equal(allowed.requests.length, 0);
  });

  it('a redirect during validation is not followed: the create fails, the other host is never called', async () => {
    allowed.respond = (req, res) => { res.writeHead(307, { Location: `${other.url}/echo?${req.query}` }); res.end(); };
    try {
      const e = await failure(list().subscriptions.add(`${allowed.url}/redirecting`, inDays(5)));
      assert.equal(e.code, VALIDATION_FAILED);
      assert.equal(allowed.requests.length, 1);
      assert.equal(other.requests.length, 0);
    } finally {
      allowed.respond = sharePointContract;
    }
  });

  it('a redirect answering a notification is a failed attempt, not followed', async () => {
    const sub = await list().subscriptions.add(`${allowed.url}/later-redirects`, inDays(5)) as { id: string };
    allowed.respond = (req, res) => { res.writeHead(302, { Location: `${other.url}/stolen` }); res.end(); };
    try {
      await list().items.add({ Title: 'redirected' });
      await allowed.waitForNotifications(1);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(other.requests.length, 0);
      const queue = await (await fetch(`${spemu.server.url}/_spemu/webhooks`)).json() as { pending: Array<{ attempts: number; lastError: string }> };
      assert.equal(queue.pending.length, 1, 'kept for a retry');
      assert.equal(queue.pending[0]!.attempts, 1);
      assert.match(queue.pending[0]!.lastError, /302/);
    } finally {
      allowed.respond = sharePointContract;
      await list().subscriptions.getById(sub.id).delete();
    }
  });

  it('a silent receiver is cut off at the timeout; an endless answer at the size cap', async () => {
    allowed.respond = () => { /* never answers */ };
    try {
      const started = Date.now();
      const e = await failure(list().subscriptions.add(`${allowed.url}/silent`, inDays(5)));
      assert.equal(e.code, VALIDATION_FAILED);
      const took = Date.now() - started;
      assert.ok(took >= 600 && took < 5_000, `gave up after ${took} ms`);
    } finally {
      allowed.respond = sharePointContract;
    }
    let sent = 0;
    allowed.respond = (req, res) => {
      // 64 KiB chunks for as long as the connection stays open (no Content-Length).
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => { while (!res.destroyed && sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length; if (!res.destroyed && sent < 64 * 1024 * 1024) res.once('drain', pump); else res.end(); };
      pump();
    };
    try {
      const e = await failure(list().subscriptions.add(`${allowed.url}/endless`, inDays(5)));
      assert.equal(e.code, VALIDATION_FAILED);
      assert.ok(sent < 16 * 1024 * 1024, `read stopped early (${sent} bytes sent)`);
      // A huge answer with a Content-Length is refused without reading it.
      allowed.respond = (req, res) => { res.writeHead(200, { 'Content-Length': String(1024 ** 3) }); res.write('x'); };
      assert.equal((await failure(list().subscriptions.add(`${allowed.url}/huge`, inDays(5)))).code, VALIDATION_FAILED);
    } finally {
      allowed.respond = sharePointContract;
    }
    // spemu still serves.
    assert.deepEqual(await list().subscriptions(), []);
  });

  it('a receiver silent on a notification is cut off at the timeout and tried again later', async () => {
    const sub = await list().subscriptions.add(`${allowed.url}/slow-later`, inDays(5)) as { id: string };
    allowed.respond = (req, res) => { if (req.query.has('validationtoken')) sharePointContract(req, res); };
    try {
      await list().items.add({ Title: 'to a silent receiver' });
      await allowed.waitForNotifications(1);
      await new Promise((r) => setTimeout(r, 1200));
      const queue = await (await fetch(`${spemu.server.url}/_spemu/webhooks`)).json() as { pending: Array<{ attempts: number; lastError: string }> };
      assert.equal(queue.pending.length, 1);
      assert.equal(queue.pending[0]!.attempts, 1);
      assert.match(queue.pending[0]!.lastError, /within 700 ms/);
    } finally {
      allowed.respond = sharePointContract;
      await list().subscriptions.getById(sub.id).delete();
    }
  });
});
