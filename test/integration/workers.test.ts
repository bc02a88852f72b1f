// `spemu --workers 2` as an operator runs it (a real primary with two real worker processes on
// one port, over the leg's database): every request sees what another worker wrote the moment
// it was acknowledged (metadata, the directory, item counters, items), a worker killed with
// SIGKILL is replaced without losing an acknowledged write, and SIGTERM stops them all.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tlsRequest } from '../helpers/tls-request.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testBackend } from '../helpers/postgres.ts';
import type { Cleanups } from '../helpers/spemu-process.ts';
import { agentsOnTwoWorkers, call, OWNER, pidOf, startWorkers as startWorkersOn } from '../helpers/workers-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const backend = testBackend();
const JSON_NOMETADATA = 'application/json;odata=nometadata';

const dirs: string[] = [];
const cleanups: Cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-workers-')); dirs.push(d); return d; };

/** `spemu --workers 2 …` on a new workspace of the leg's database (test/helpers/workers-process.ts). */
const startWorkers = (flags: string[] = []) => startWorkersOn(flags, cleanups);

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe(`spemu --workers (${backend})`, () => {
  it('a write through one worker is seen at once through the other: lists, renames, item counters, items, profiles, site users', async () => {
    const server = await startWorkers();
    const { a, b, pidA, pidB } = await agentsOnTwoWorkers(server.url);
    assert.notEqual(pidA, pidB);
    const web = '/sites/dev/_api/web';

    // Metadata: a new list, then a rename (the cached lists of the web must drop on the other worker).
    const created = await call(a, server.url, `${web}/lists`, { method: 'POST', body: { Title: 'Coherent', BaseTemplate: 100 } });
    assert.equal(created.status, 201);
    assert.equal((await call(b, server.url, `${web}/lists/getbytitle('Coherent')?$select=Title,ItemCount`)).json.ItemCount, 0);
    const renamed = await call(a, server.url, `${web}/lists/getbytitle('Coherent')`, {
      method: 'POST', body: { Title: 'Renamed' }, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' },
    });
    assert.equal(renamed.status, 204);
    assert.equal((await call(b, server.url, `${web}/lists/getbytitle('Coherent')`)).status, 404);

    // Items and the list's counters: written on A, read on B.
    const added = await call(a, server.url, `${web}/lists/getbytitle('Renamed')/items`, { method: 'POST', body: { Title: 'first' } });
    assert.equal(added.status, 201);
    const seen = await call(b, server.url, `${web}/lists/getbytitle('Renamed')?$select=Title,ItemCount`);
    assert.deepEqual([seen.json.Title, seen.json.ItemCount], ['Renamed', 1]);
    assert.equal((await call(b, server.url, `${web}/lists/getbytitle('Renamed')/items(${added.json.Id})?$select=Title`)).json.Title, 'first');

    // A new field (the list's schema) on B, used at once on A.
    const field = await call(b, server.url, `${web}/lists/getbytitle('Renamed')/fields`, {
      method: 'POST', body: { Title: 'Score', FieldTypeKind: 9 },
    });
    assert.equal(field.status, 201);
    const scored = await call(a, server.url, `${web}/lists/getbytitle('Renamed')/items`, { method: 'POST', body: { Title: 'second', Score: 7 } });
    assert.equal(scored.status, 201);
    assert.equal(scored.json.Score, 7);

    // The directory: a profile property set on A, read on B.
    const profile = await call(a, server.url, '/sites/dev/_api/SP.UserProfiles.PeopleManager/SetSingleValueProfileProperty', {
      method: 'POST', body: { accountName: `i:0#.f|membership|${OWNER}`, propertyName: 'AboutMe', propertyValue: 'set on worker A' },
    });
    assert.equal(profile.status, 200);
    const props = await call(b, server.url, `/sites/dev/_api/SP.UserProfiles.PeopleManager/GetMyProperties?$select=UserProfileProperties`);
    const aboutMe = props.json.UserProfileProperties.find((p: { Key: string }) => p.Key === 'AboutMe');
    assert.equal(aboutMe.Value, 'set on worker A');

    // Site users (who may act here): a user ensured on B is a site user on A.
    const ensured = await call(b, server.url, `${web}/ensureuser`, { method: 'POST', body: { logonName: 'erin@contoso.onmicrosoft.com' } });
    assert.equal(ensured.status, 200);
    const onA = await call(a, server.url, `${web}/getuserbyid(${ensured.json.Id})?$select=LoginName`);
    assert.equal(onA.json.LoginName, 'i:0#.f|membership|erin@contoso.onmicrosoft.com');

    // Principals (cached rows of the User Information List): Author expanded on B, renamed on A, expanded on B again.
    const author = (agent: Agent) => call(agent, server.url, `${web}/lists/getbytitle('Renamed')/items(${added.json.Id})?$select=Author/Id,Author/Title&$expand=Author`);
    const before = (await author(b)).json.Author;
    const renamedUser = await call(a, server.url, `${web}/siteuserinfolist/items(${before.Id})`, {
      method: 'POST', body: { Title: 'Renamed on A' }, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' },
    });
    assert.equal(renamedUser.status, 204);
    assert.equal((await author(b)).json.Author.Title, 'Renamed on A');
    assert.notEqual(before.Title, 'Renamed on A');

    a.destroy();
    b.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });

  it('a worker killed with SIGKILL is replaced; what it acknowledged stays; SIGTERM stops every worker', async () => {
    // --reset: the first worker to start wipes the database, once; a replacement never does.
    const server = await startWorkers(['--reset']);
    const { a, b, pidA, pidB } = await agentsOnTwoWorkers(server.url);
    const items = "/sites/dev/_api/web/lists/getbytitle('Tasks')/items";
    const acknowledged = await call(b, server.url, items, { method: 'POST', body: { Title: 'written just before the crash' } });
    assert.equal(acknowledged.status, 201);
    process.kill(pidB, 'SIGKILL');
    b.destroy();

    // The primary starts another worker in its place.
    let replacement: number | undefined;
    const deadline = Date.now() + 30_000;
    while (replacement === undefined && Date.now() < deadline) {
      const probe = new Agent({ keepAlive: false });
      const pid = await pidOf(probe, server.url).catch(() => undefined);
      probe.destroy();
      if (pid !== undefined && pid !== pidA && pid !== pidB) replacement = pid;
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(replacement, `no replacement worker:\n${server.output()}`);
    assert.match(server.output(), new RegExp(`worker ${pidB} stopped \\(SIGKILL\\); starting another`));
    const read = await call(a, server.url, `${items}(${acknowledged.json.Id})?$select=Title`);
    assert.equal(read.json.Title, 'written just before the crash');

    a.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    for (const pid of [pidA, replacement]) assert.equal(alive(pid), false, `worker ${pid} still running after SIGTERM`);
  });

  it('--https: every worker serves TLS with the one certificate the first worker made into the workspace', async () => {
    const server = await startWorkers(['--https']);
    const data = server.ws.data;
    assert.match(server.url, /^https:\/\//);
    const caPath = join(data, 'tls', 'ca.pem');
    assert.ok(server.output().includes(`NODE_EXTRA_CA_CERTS=${caPath}`), server.output());
    const ca = readFileSync(caPath, 'utf8');
    assert.deepEqual(readdirSync(join(data, 'tls')).sort(), ['ca-key.pem', 'ca.pem', 'server-key.pem', 'server.pem']);
    // A new connection each time: the primary hands them to the workers in turn.
    const pids = new Set<number>();
    for (let i = 0; i < 10 && pids.size < 2; i++) {
      const health = await tlsRequest(`${server.url}/_spemu/health`, { ca });
      pids.add(health.json().pid);
    }
    assert.equal(pids.size, 2);
    const added = await tlsRequest(`${server.url}/sites/dev/_api/web/lists/getbytitle('Tasks')/items`, {
      ca, method: 'POST', body: JSON.stringify({ Title: 'over TLS' }), headers: { 'Content-Type': 'application/json', Accept: JSON_NOMETADATA },
    });
    assert.equal(added.status, 201);
    assert.equal(added.json()['odata.id'], undefined);
    const read = await tlsRequest(`${server.url}/sites/dev/_api/web/lists/getbytitle('Tasks')/items(${added.json().Id})?$select=Title`, { ca, headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(read.json().d.Title, 'over TLS');
    assert.ok(read.json().d.__metadata.uri.startsWith(`${server.url}/sites/dev/_api/`));
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });

  it('refuses --workers 0, more than one worker on an in-memory database, and reports a worker\'s failed start once', async () => {
    const missing = join(tempDir(), 'missing-tenant.json');
    for (const [args, message] of [
      [['--workers', '0'], /--workers must be at least 1/],
      [['--workers', '2', '--db', ':memory:'], /in-memory database cannot be shared/],
      // Found by the worker that prepares the database: told by the primary, as one process would.
      [['--workers', '2', '--data', tempDir(), '--seed', missing], new RegExp(`^spemu: Cannot load tenant file ${missing}:\nfile not found\n$`)],
    ] as const) {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPEMU_')));
      const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'), ...args, '--port', '0'], { env, cwd: tempDir() });
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += String(d); });
      const code = await new Promise<number | null>((done) => child.on('exit', done));
      assert.equal(code, 1);
      assert.match(stderr, message);
    }
  });
});
