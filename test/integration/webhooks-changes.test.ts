// A webhook receiver as SharePoint's own are written (issue #10's first "Done when" point): a
// notification carries no change details, so the receiver keeps a change token — the list's
// CurrentChangeToken read when it subscribed, then the last change it read — and on each
// notification calls the list's getChanges from it (Microsoft's azd-functions-sharepoint-webhooks
// sample does exactly this). Through an unmodified @pnp/sp 4.x: subscriptions.add (validated),
// writes, a notification answered 500 and retried, subscriptions.update, an expired subscription
// and a new one, subscriptions.delete — and what the receiver read, notification by
// notification, is exactly the adds, updates and deletes made, each once, none lost.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { IChangeQuery, SPFI } from '@pnp/sp';
import '@pnp/sp/subscriptions/index.js';
import { useTestServer } from '../helpers/server.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { startReceiver, sharePointContract, type Receiver } from '../helpers/webhook-receiver.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-subscription-types.ts';

type Change = { ChangeType: number; ItemId: number; ListId: string; ChangeToken: { StringValue: string } };

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
/** What the azd sample asks for: item adds, updates, deletes, renames and restores. */
const ITEM_CHANGES: Omit<IChangeQuery, 'ChangeTokenStart'> = { Item: true, Add: true, Update: true, DeleteObject: true, Rename: true, Restore: true };
const ADD = 1, UPDATE = 2, DELETE = 3;

describe('a webhook receiver that reads the change log from the token it kept', () => {
  const spemu = useTestServer({ webhookDelay: 0, webhookRetryInterval: 300, webhookRetries: 2 });
  let sp: SPFI;
  let receiver: Receiver;
  let listId = '';
  /** The receiver's state: the token it keeps per list, and the changes it read, notification by notification. */
  const kept = new Map<string, string>();
  const read: Array<{ clientState: unknown; changes: Array<[number, number]> }> = [];
  /** Answer the next notifications with 500 (and read nothing): how many. */
  let failNext = 0;
  /** Notifications are handled one after another, as a queue-backed receiver does. */
  let handling: Promise<void> = Promise.resolve();
  /** What went wrong inside the receiver (it answers 500 then), reported by the test waiting on it. */
  const receiverErrors: unknown[] = [];

  async function onNotification(body: string): Promise<number> {
    if (failNext > 0) { failNext--; return 500; }
    for (const note of (JSON.parse(body) as { value: Array<{ resource: string; clientState?: string }> }).value) {
      const start = kept.get(note.resource);
      assert.ok(start, `a notification for a list the receiver subscribed to: ${note.resource}`);
      const changes = await sp.web.lists.getById(note.resource).getChanges({ ...ITEM_CHANGES, ChangeTokenStart: { StringValue: start } }) as Change[];
      read.push({ clientState: note.clientState, changes: changes.map((c) => [c.ChangeType, c.ItemId]) });
      if (changes.length > 0) kept.set(note.resource, changes.at(-1)!.ChangeToken.StringValue);
    }
    return 200;
  }

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    receiver = await startReceiver((req, res) => {
      if (req.query.has('validationtoken')) return sharePointContract(req, res);
      handling = handling.then(async () => {
        let status = 500;
        try { status = await onNotification(req.body); } catch (e) { receiverErrors.push(e); } finally { res.writeHead(status); res.end(); }
      });
    });
    listId = (await sp.web.lists.add('Watched changes', '', 100)).Id;
  });
  after(async () => { await receiver.close(); });

  const list = () => sp.web.lists.getById(listId);
  const currentToken = async () =>
    ((await list().select('CurrentChangeToken')()) as unknown as { CurrentChangeToken: { StringValue: string } }).CurrentChangeToken.StringValue;
  /** Every change the receiver has read so far, in order. */
  const allRead = () => read.flatMap((r) => r.changes);
  async function readUntil(count: number, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (allRead().length < count) {
      if (receiverErrors.length > 0) throw receiverErrors[0];
      if (Date.now() > deadline) assert.fail(`the receiver read ${JSON.stringify(allRead())}, expected ${count} changes`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await handling;
    assert.deepEqual(receiverErrors, []);
  }
  const flush = async () => (await (await fetch(`${spemu.server.url}/_spemu/webhooks/flush`, { method: 'POST' })).json()) as { expiredSubscriptions: number };

  let firstToken = '';
  let subscriptionId = '';
  let a = 0, b = 0, c = 0;

  it('add: validated during the call; then each notification\'s getChanges from the kept token reads exactly the writes made', async () => {
    // The receiver keeps the list's token from before it subscribed: nothing made after it is missed.
    firstToken = await currentToken();
    kept.set(listId, firstToken);
    await list().items.add({ Title: 'before subscribing' });
    const validations = receiver.requests.length;
    const sub = await list().subscriptions.add(`${receiver.url}/hook`, days(30), 'first') as { id: string };
    subscriptionId = sub.id;
    assert.ok(receiver.requests.slice(validations).some((r) => r.query.has('validationtoken')), 'validated during add');

    a = (await list().items.add({ Title: 'a' })).Id;
    b = (await list().items.add({ Title: 'b' })).Id;
    await list().items.getById(a).update({ Title: 'a2' });
    await list().items.getById(b).delete();
    await sp.web.lists.getByTitle('Tasks').items.add({ Title: 'another list' });

    // The first notification reads the item made before subscribing too: the token predates it.
    await readUntil(5);
    await new Promise((r) => setTimeout(r, 400));
    await handling;
    assert.deepEqual(allRead(), [[ADD, a - 1], [ADD, a], [ADD, b], [UPDATE, a], [DELETE, b]], 'each change once, in order, this list only');
    assert.ok(read.length >= 1 && read.every((r) => r.clientState === 'first'));
  });

  it('a notification answered 500 is sent again; the retry reads the change then, once', async () => {
    const before = allRead().length;
    const posts = receiver.requests.filter((r) => r.path === '/hook' && r.body).length;
    failNext = 1;
    await list().items.getById(a).update({ Title: 'a3' });
    await readUntil(before + 1);
    const calls = receiver.requests.filter((r) => r.path === '/hook' && r.body).slice(posts);
    assert.equal(calls.length, 2, 'the 500, then the retry');
    assert.ok(calls[1]!.at - calls[0]!.at >= 250, `retried ${calls[1]!.at - calls[0]!.at} ms later`);
    assert.deepEqual(allRead().slice(before), [[UPDATE, a]]);
  });

  it('update: the renewed subscription notifies with its new clientState; reading goes on from the kept token', async () => {
    await list().subscriptions.getById(subscriptionId).update(days(90), undefined, 'renewed');
    const before = allRead().length;
    c = (await list().items.add({ Title: 'c' })).Id;
    await readUntil(before + 1);
    assert.deepEqual(allRead().slice(before), [[ADD, c]]);
    assert.equal(read.at(-1)!.clientState, 'renewed');
  });

  it('expiry: an expired subscription is not notified; a new one\'s first notification reads what was made meanwhile', async () => {
    await list().subscriptions.getById(subscriptionId).update(new Date(Date.now() + 1500).toISOString());
    await new Promise((r) => setTimeout(r, 1600));
    const notified = receiver.notifications().length;
    const before = allRead().length;
    await list().items.getById(c).update({ Title: 'c while expired' });
    assert.equal((await flush()).expiredSubscriptions, 1);
    assert.equal(receiver.notifications().length, notified, 'nothing sent for an expired subscription');

    const again = await list().subscriptions.add(`${receiver.url}/hook`, days(30), 'again') as { id: string };
    subscriptionId = again.id;
    await list().items.getById(c).delete();
    await readUntil(before + 2);
    assert.deepEqual(allRead().slice(before), [[UPDATE, c], [DELETE, c]], 'the change made while expired is not lost');
  });

  it('delete: no notification after it; the kept token still reads what came after; from the first token, exactly every change made', async () => {
    await list().subscriptions.getById(subscriptionId).delete();
    const notified = receiver.notifications().length;
    const d = (await list().items.add({ Title: 'd' })).Id;
    await flush();
    assert.equal(receiver.notifications().length, notified);
    const since = await list().getChanges({ ...ITEM_CHANGES, ChangeTokenStart: { StringValue: kept.get(listId)! } }) as Change[];
    assert.deepEqual(since.map((x) => [x.ChangeType, x.ItemId]), [[ADD, d]]);

    // What the receiver read over all its notifications is the change log from its first token, exactly.
    const whole = await list().getChanges({ ...ITEM_CHANGES, ChangeTokenStart: { StringValue: firstToken } }) as Change[];
    assert.deepEqual(whole.map((x) => [x.ChangeType, x.ItemId]), [...allRead(), [ADD, d]]);
  });
});
