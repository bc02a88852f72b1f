// Webhook delivery is durable (issue #10): the `spemu` command, over the leg's database (a
// SQLite workspace on disk, or PostgreSQL), takes a subscription and an item write, and is
// killed with SIGKILL while the notification waits out --webhook-delay. Started again on the
// same workspace, it delivers that notification once; killed and started again after the
// receiver answered 200, it does not send it twice.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testBackend } from '../helpers/postgres.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { cleanEnv, newWorkspace, spemuCommand, startSpemu as startProcess, workspaceArgs, type SpemuProcess, type Workspace } from '../helpers/spemu-process.ts';

const SECRET = 'webhook-durability-secret-0123456789abcdef';
const OWNER = 'alice@contoso.onmicrosoft.com';
const backend = testBackend();

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

type Server = SpemuProcess;

/** `spemu` on the workspace with this `--webhook-delay`, in its own process (the one killed). */
const startSpemu = (ws: Workspace, delay: string) => startProcess(ws, ['--token-secret', SECRET, '--webhook-delay', delay], cleanups);

/** `spemu webhooks <args>` on the workspace: its output. */
async function webhooksCli(ws: Workspace, ...args: string[]): Promise<string> {
  const [command, argv] = spemuCommand('webhooks', ...args, ...workspaceArgs(ws));
  const { stdout } = await promisify(execFile)(command, argv, { env: cleanEnv() });
  return stdout;
}

async function kill(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

describe(`webhook delivery survives kill -9 (${backend})`, () => {
  it('a queued notification is delivered after a restart, once', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const ws = await newWorkspace('spemu-webhook-durability', 'spemu_webhooks', cleanups);
    const token = await bearerFor(SECRET, OWNER);
    const headers = { Authorization: token, Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' };
    const call = async (url: string, body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      assert.ok(res.status === 201, `POST ${url} → ${res.status} ${await res.clone().text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };

    // A long delay: the notification is still queued when the process dies.
    let server = await startSpemu(ws, '4s');
    const listOf = (s: Server) => `${s.url}/sites/dev/_api/web/lists/getbytitle('Tasks')`;
    const list = listOf(server);
    const sub = await call(`${list}/subscriptions`, {
      resource: list, notificationUrl: `${receiver.url}/durable`, expirationDateTime: new Date(Date.now() + 86_400_000).toISOString(), clientState: 'kept',
    });
    await call(`${list}/items`, { Title: 'queued when killed' });
    await kill(server);
    assert.equal(receiver.notifications().length, 0, 'killed before the delay ran out');
    // The queue as the CLI sees it, with the server down: the notification, its URL without a query.
    const listed = await webhooksCli(ws, 'list');
    assert.match(listed, /1 webhook notification waiting/);
    assert.ok(listed.includes(String(sub.id)) && listed.includes(`${receiver.url}/durable`), listed);

    server = await startSpemu(ws, '4s');
    await receiver.waitForNotifications(1, 20_000);
    assert.deepEqual(receiver.notifications()[0]!.value.map((v) => [v.subscriptionId, v.clientState]), [[sub.id, 'kept']]);
    // Delivered and settled: another restart sends nothing more.
    await new Promise((r) => setTimeout(r, 1500));
    await kill(server);
    server = await startSpemu(ws, '0');
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(receiver.notifications().length, 1, 'not sent twice to a receiver that answered 200');
    await kill(server);
    assert.match(await webhooksCli(ws, 'list'), /No webhook notifications waiting/);
    // `flush` from the CLI sends what a write queued while no server delivered it.
    server = await startSpemu(ws, '1h');
    await call(`${listOf(server)}/items`, { Title: 'flushed by the CLI' });
    await kill(server);
    assert.match(await webhooksCli(ws, 'flush'), /Delivered 1, retrying 0, dropped 0/);
    assert.equal(receiver.notifications().length, 2);
  });
});
