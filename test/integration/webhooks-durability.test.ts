// Webhook delivery is durable (issue #10): the `spemu` command, over the leg's database (a
// SQLite workspace on disk, or PostgreSQL), takes a subscription and an item write, and is
// killed with SIGKILL while the notification waits out --webhook-delay. Started again on the
// same workspace, it delivers that notification once; killed and started again after the
// receiver answered 200, it does not send it twice.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedCluster, testBackend } from '../helpers/postgres.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'webhook-durability-secret-0123456789abcdef';
const OWNER = 'alice@contoso.onmicrosoft.com';
const backend = testBackend();

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

interface Workspace { data: string; db: string | undefined }

async function newWorkspace(): Promise<Workspace> {
  const dir = mkdtempSync(join(tmpdir(), 'spemu-webhook-durability-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, 'ws');
  if (backend === 'sqlite') return { data, db: undefined };
  const cluster = await sharedCluster();
  const db = await cluster.createDatabase('spemu_webhooks');
  cleanups.push(() => cluster.dropDatabase(db));
  return { data, db };
}

interface Server { child: ChildProcessWithoutNullStreams; url: string; exited: Promise<void> }

/** `spemu --workers 1` on the workspace, once its banner is out. */
async function startSpemu(ws: Workspace, delay: string): Promise<Server> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPEMU_')));
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'), '--workers', '1', '--port', '0',
    '--log-level', 'warn', '--token-secret', SECRET, '--data', ws.data, '--webhook-delay', delay, ...(ws.db ? ['--db', ws.db] : [])], { env });
  let output = '';
  child.stdout.on('data', (d) => { output += String(d); });
  child.stderr.on('data', (d) => { output += String(d); });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  cleanups.push(async () => { if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited; } });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const banner = /serving tenant 'contoso' at (http:\/\/\S+)/.exec(output);
    if (banner) return { child, url: banner[1]!, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`spemu did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `spemu webhooks <args>` on the workspace: its output. */
async function webhooksCli(ws: Workspace, ...args: string[]): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPEMU_')));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'), 'webhooks', ...args,
    '--data', ws.data, ...(ws.db ? ['--db', ws.db] : [])], { env });
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
    const ws = await newWorkspace();
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
