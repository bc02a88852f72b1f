// CLI for Microsoft 365's `spo list webhook` commands (add, list, get, set, remove; unmodified,
// 11.11.0) against spemu's list webhooks (issue #10), with a real receiver: the validation
// handshake during `add` (at the CLI's default expiry, 180 days), a notification after a write,
// a new expiry and the removal — each command once (the CLI takes seconds to start). The three
// ways the CLI names a list (title, id, server-relative URL through GetList) are each used once.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { restAs, useM365 } from '../helpers/m365-cli.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const days = (n: number) => new Date(Date.now() + n * 86_400_000);

describe('CLI for Microsoft 365: spo list webhook add|list|get|set|remove', () => {
  const cli = useM365(ALICE, { webhookDelay: 0 });
  const site = () => cli.server.site('/sites/dev');
  let receiver: Receiver;
  before(async () => { receiver = await startReceiver(); });
  after(async () => { await receiver.close(); });

  /** A REST call as Alice, to act and check independently of the CLI. */
  const rest = (path: string, init: { method?: string; body?: object } = {}) => restAs(cli, site(), ALICE, 'alice-demo-pass', path, init);

  let id = '';
  let listId = '';

  it('add: the receiver is validated during the command; the subscription comes back with its id and the list as resource', async () => {
    listId = (await rest(`web/lists/getbytitle('Tasks')?$select=Id`)).json().Id;
    // No --expirationDateTime: the CLI asks for its default, the 180-day maximum (counted in local days).
    const longest = new Date();
    longest.setDate(longest.getDate() + 180);
    const added = await cli.m365('spo', 'list', 'webhook', 'add', '--webUrl', site(), '--listTitle', 'Tasks',
      '--notificationUrl', `${receiver.url}/cli`, '--clientState', 'from m365');
    assert.match(added.id, /^[0-9a-f-]{36}$/);
    assert.equal(added.resource, listId);
    assert.equal(added.clientState, 'from m365');
    const expiry = Date.parse(added.expirationDateTime);
    assert.ok(expiry >= longest.getTime() && expiry < longest.getTime() + 120_000, `the 180-day default accepted: ${added.expirationDateTime}`);
    id = added.id;
    const validation = receiver.requests.find((r) => r.path === '/cli' && r.query.has('validationtoken'));
    assert.ok(validation, 'validated during add');
  });

  it('list (by list id) and get (by the list\'s URL, GetList)', async () => {
    const listed = await cli.m365('spo', 'list', 'webhook', 'list', '--webUrl', site(), '--listId', listId);
    assert.deepEqual(listed.map((s: { id: string }) => s.id), [id]);
    assert.equal(listed[0].notificationUrl, `${receiver.url}/cli`);
    const got = await cli.m365('spo', 'list', 'webhook', 'get', '--webUrl', site(), '--listUrl', '/sites/dev/Lists/Tasks', '--id', id);
    assert.equal(got.id, id);
    assert.equal(got.clientState, 'from m365');
  });

  it('a write notifies the receiver with the CLI\'s clientState', async () => {
    const seen = receiver.notifications().length;
    assert.equal((await rest(`web/lists/getbytitle('Tasks')/items`, { method: 'POST', body: { Title: 'hooked' } })).status, 201);
    await receiver.waitForNotifications(seen + 1);
    const [note] = receiver.notifications().slice(seen);
    assert.equal(note!.value[0]!.subscriptionId, id);
    assert.equal(note!.value[0]!.clientState, 'from m365');
  });

  it('set changes the expiry; remove deletes the subscription', async () => {
    const renewed = days(60);
    await cli.m365('spo', 'list', 'webhook', 'set', '--webUrl', site(), '--listTitle', 'Tasks', '--id', id, '--expirationDateTime', renewed.toISOString());
    const after = (await rest(`web/lists/getbytitle('Tasks')/subscriptions('${id}')`)).json();
    assert.equal(Date.parse(after.expirationDateTime), renewed.getTime());
    assert.equal(after.clientState, 'from m365', 'a set of the expiry alone keeps the client state');

    await cli.m365('spo', 'list', 'webhook', 'remove', '--webUrl', site(), '--listTitle', 'Tasks', '--id', id, '--force');
    assert.deepEqual((await rest(`web/lists/getbytitle('Tasks')/subscriptions`)).json().value, []);
  });
});
