// Throttling and fault rules under `spemu --workers 2` (real processes): one state for the whole
// server, whichever worker a connection lands on. A user's budget is counted once, not once per
// worker; rules POSTed to /_spemu/faults through one worker hold on every connection the moment
// the POST is answered (and so do throttle settings and DELETE); a worker killed with SIGKILL is
// replaced by one that has the rules in force and the budget already spent; a faults file,
// watched by the primary alone, reaches both workers when it changes.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Agent } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testBackend } from '../helpers/postgres.ts';
import type { Cleanups } from '../helpers/spemu-process.ts';
import { agentOn, agentsOnTwoWorkers, call, startWorkers, type Reply } from '../helpers/workers-process.ts';

const cleanups: Cleanups = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

const WEB = '/sites/dev/_api/web';
const TASKS = "/sites/dev/_api/web/lists/getbytitle('Tasks')?$select=Title";

/** SharePoint's 429: Retry-After in whole seconds, its too-busy error. */
function assertThrottled(reply: Reply): void {
  assert.equal(reply.status, 429);
  assert.match(String(reply.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(reply.json['odata.error'].code, '-1, Microsoft.SharePoint.SPServerTooBusyException');
}

/** `count` GETs of `path`, taking turns over `agents` (so over both workers). */
async function inTurns(url: string, agents: Agent[], path: string, count: number): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < count; i++) replies.push(await call(agents[i % agents.length]!, url, path));
  return replies;
}

describe(`spemu --workers 2: one throttling-and-faults state (${testBackend()})`, () => {
  it('--throttle: a user\'s budget is counted once for the server, then SharePoint\'s 429 on every worker', async () => {
    const server = await startWorkers(['--throttle', 'user-requests=10/5m'], cleanups);
    const { a, b, pidA, pidB } = await agentsOnTwoWorkers(server.url);
    assert.notEqual(pidA, pidB);
    const replies = await inTurns(server.url, [a, b], TASKS, 20);
    // Per worker, each would have let 10 through: 20 successes.
    assert.deepEqual(replies.map((r) => r.status), [...Array(10).fill(200), ...Array(10).fill(429)]);
    for (const reply of replies.slice(10)) assertThrottled(reply);
    a.destroy();
    b.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });

  it('/_spemu/faults through one worker holds on every connection once answered: rules, throttle settings, DELETE', async () => {
    const server = await startWorkers([], cleanups);
    const { a, b } = await agentsOnTwoWorkers(server.url);
    assert.equal((await call(b, server.url, WEB)).status, 200);

    const set = await call(a, server.url, '/_spemu/faults', { method: 'POST', body: { rules: [{ name: 'web down', path: WEB, error: 503, retryAfter: 4 }] } });
    assert.equal(set.status, 200);
    for (const agent of [b, a, b]) {
      const reply = await call(agent, server.url, WEB);
      assert.equal(reply.status, 503);
      assert.equal(reply.headers['retry-after'], '4');
    }
    assert.deepEqual((await call(b, server.url, '/_spemu/faults')).json.rules.map((r: { name: string }) => r.name), ['web down']);

    // Throttle settings set through B: counted once over both workers.
    assert.equal((await call(b, server.url, '/_spemu/faults', { method: 'POST', body: { throttle: 'user-requests=4/5m' } })).status, 200);
    const replies = await inTurns(server.url, [a, b], TASKS, 8);
    assert.deepEqual(replies.map((r) => r.status), [200, 200, 200, 200, 429, 429, 429, 429]);
    for (const reply of replies.slice(4)) assertThrottled(reply);

    // DELETE through A clears both on B at once.
    assert.equal((await call(a, server.url, '/_spemu/faults', { method: 'DELETE' })).status, 204);
    assert.equal((await call(b, server.url, WEB)).status, 200);
    assert.equal((await call(b, server.url, TASKS)).status, 200);
    assert.deepEqual((await call(b, server.url, '/_spemu/faults')).json, { seed: 1, rules: [], throttle: null });
    a.destroy();
    b.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });

  it('a worker killed with SIGKILL is replaced by one with the rules in force and the budget already spent', async () => {
    const server = await startWorkers([], cleanups);
    const { a, b, pidA, pidB } = await agentsOnTwoWorkers(server.url);
    const set = await call(b, server.url, '/_spemu/faults', {
      method: 'POST', body: { rules: [{ name: 'web down', path: WEB, error: 503 }], throttle: 'user-requests=7/5m' },
    });
    assert.equal(set.status, 200);
    assert.deepEqual((await inTurns(server.url, [a, b], TASKS, 4)).map((r) => r.status), [200, 200, 200, 200]);

    process.kill(pidB, 'SIGKILL');
    b.destroy();
    const { agent: c, pid: replacement } = await agentOn(server.url, (pid) => pid !== pidA && pid !== pidB, 90_000);
    assert.match(server.output(), new RegExp(`worker ${pidB} stopped \\(SIGKILL\\); starting another`));

    // The replacement has the rules set before it started…
    assert.equal((await call(c, server.url, WEB)).status, 503, `worker ${replacement} has no rules`);
    assert.equal((await call(c, server.url, '/_spemu/faults')).json.rules.length, 1);
    // …and the budget is the one already spent: 7 in all, 4 before the crash, 1 the faulted
    // request (budgets are charged before the rules are applied).
    const replies = await inTurns(server.url, [c, a], TASKS, 4);
    assert.deepEqual(replies.map((r) => r.status), [200, 200, 429, 429]);
    for (const reply of replies.slice(2)) assertThrottled(reply);
    a.destroy();
    c.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });
  it('--faults file.json: the primary alone watches it; a change reaches every worker, a bad file is reported once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spemu-workers-faults-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'faults.json');
    writeFileSync(file, JSON.stringify({ rules: [{ path: WEB, error: 503 }] }));
    const server = await startWorkers(['--faults', file], cleanups);
    const { a, b } = await agentsOnTwoWorkers(server.url);
    for (const agent of [a, b]) assert.equal((await call(agent, server.url, WEB)).status, 503);
    writeFileSync(file, JSON.stringify({ rules: [{ path: WEB, error: 504 }] }));
    // Reloaded within a few polls (250 ms each): then on both workers alike.
    const deadline = Date.now() + 10_000;
    while ((await call(a, server.url, WEB)).status !== 504 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    for (const agent of [a, b, a, b]) assert.equal((await call(agent, server.url, WEB)).status, 504);
    // One watcher, not one per worker: a file that does not parse is reported once, and the
    // rules in force stay on both.
    writeFileSync(file, '{ "rules": [ { "error": "nonsense" } ] }  ');
    const reported = () => server.output().split('fault rules not reloaded').length - 1;
    const until = Date.now() + 10_000;
    while (reported() === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(reported(), 1, server.output());
    for (const agent of [a, b]) assert.equal((await call(agent, server.url, WEB)).status, 504);
    a.destroy();
    b.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });
});
