// Several spemu instances on one PostgreSQL database: atomic item ids and etag checks under
// concurrency, migrations when instances start together, digests one instance issues and
// another accepts, cross-instance metadata cache invalidation, and 503 + recovery when the
// database goes away and comes back. Real clusters (test/helpers/postgres.ts), nothing mocked.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServer, type ServerOptions } from '../../src/index.ts';
import { DEMO_TENANT, firstOwner, minimalTenant } from '../helpers/server.ts';
import { postgresBinaries, sharedCluster, startCluster, type Cluster } from '../helpers/postgres.ts';

const binaries = postgresBinaries();
const skip = 'missing' in binaries ? `PostgreSQL leg skipped: ${binaries.missing}` : false;
if (skip) console.log(`# ${skip}`);

const SECRET = randomBytes(32).toString('base64url');
const NOMETA = 'application/json;odata=nometadata';
const TENANT = minimalTenant({ lists: [{ title: 'Race', url: 'Lists/Race' }] });
const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
const basic = (upn: string, password: string) => `Basic ${Buffer.from(`${upn}:${password}`).toString('base64')}`;

type Running = Awaited<ReturnType<typeof startServer>>;

const start = (db: string, options: ServerOptions = {}) =>
  startServer({ db, port: 0, logLevel: 'silent', seed: TENANT, tokenSecret: SECRET, anonymousUser: OLIVIA, ...options });

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const r = await fetch(url, { ...init, headers: { Accept: NOMETA, 'Content-Type': 'application/json', ...init.headers } });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

const items = (s: Running, list = 'Race') => `${s.url}/sites/test/_api/web/lists/getbytitle('${list}')/items`;

describe('several instances on one PostgreSQL database', { skip }, () => {
  let cluster: Cluster;
  let db: string;
  let a: Running;
  let b: Running;

  before(async () => {
    cluster = await sharedCluster();
    db = await cluster.createDatabase();
    // Two instances migrating and seeding one fresh database at the same moment.
    [a, b] = await Promise.all([start(db), start(db)]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (db) await cluster.dropDatabase(db);
  });

  it('two instances starting at once on a fresh database migrate and seed it once', async () => {
    const lists = await json(`${a.url}/sites/test/_api/web/lists?$filter=Title eq 'Race'&$select=Title`);
    assert.equal(lists.status, 200);
    assert.equal(lists.body.value.length, 1);
    const sites = await json(`${b.url}/sites/test/_api/web?$select=Title`);
    assert.equal(sites.body.Title, 'Test');
    // A third instance, later, finds everything in place.
    const c = await start(db);
    await c.close();
  });

  it('a freshly seeded database has planner statistics at once (ANALYZE after the seed)', async () => {
    // Without them PostgreSQL plans a new list's first queries from empty-table guesses.
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const { rows } = await client.query<{ analyzed: string }>(
        "select count(*) as analyzed from pg_stat_user_tables where relname = 'lists' and (last_analyze is not null or last_autoanalyze is not null)");
      assert.equal(Number(rows[0]!.analyzed), 1);
    } finally {
      await client.end();
    }
  });

  it('concurrent creates from both instances get unique, gap-free ids', async () => {
    const perInstance = 40;
    const create = (s: Running, n: number) => json(items(s), { method: 'POST', body: JSON.stringify({ Title: `${s.port}-${n}` }) });
    const responses = await Promise.all([
      ...Array.from({ length: perInstance }, (_, n) => create(a, n)),
      ...Array.from({ length: perInstance }, (_, n) => create(b, n)),
    ]);
    for (const r of responses) assert.equal(r.status, 201, JSON.stringify(r.body));
    const ids = responses.map((r) => r.body.Id as number).sort((x, y) => x - y);
    assert.deepEqual(ids, Array.from({ length: 2 * perInstance }, (_, i) => i + 1));
    const list = await json(`${b.url}/sites/test/_api/web/lists/getbytitle('Race')?$select=ItemCount`);
    assert.equal(list.body.ItemCount, 2 * perInstance);
  });

  it('concurrent MERGEs with one etag: exactly one succeeds, the rest are 412', async () => {
    const created = await json(items(a), { method: 'POST', body: JSON.stringify({ Title: 'contested' }) });
    assert.equal(created.status, 201);
    const etag = created.headers.get('etag')!;
    assert.ok(etag);
    const merge = (s: Running, n: number) => fetch(`${items(s)}(${created.body.Id})`, {
      method: 'POST',
      headers: { Accept: NOMETA, 'Content-Type': 'application/json', 'X-HTTP-Method': 'MERGE', 'If-Match': etag },
      body: JSON.stringify({ Title: `writer ${n}` }),
    }).then(async (r) => { await r.arrayBuffer(); return r.status; });
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, n) => merge(n % 2 ? a : b, n)));
    assert.equal(statuses.filter((s) => s === 204 || s === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 412).length, statuses.length - 1, statuses.join(','));
    const after_ = await json(`${items(b)}(${created.body.Id})?$select=Title,owshiddenversion`);
    assert.match(after_.body.Title, /^writer \d+$/);
  });

  it('a digest one instance issues is accepted by the other (same token secret)', async () => {
    const auth = basic(OLIVIA, 'pw-olivia');
    const info = await json(`${a.url}/sites/test/_api/contextinfo`, { method: 'POST', headers: { Authorization: auth } });
    assert.equal(info.status, 200);
    const digest = info.body.FormDigestValue as string;
    const written = await json(items(b), { method: 'POST', headers: { Authorization: auth, 'X-RequestDigest': digest }, body: JSON.stringify({ Title: 'via B' }) });
    assert.equal(written.status, 201, JSON.stringify(written.body));
    const refused = await json(items(b), { method: 'POST', headers: { Authorization: auth, 'X-RequestDigest': 'nonsense' }, body: JSON.stringify({ Title: 'no' }) });
    assert.equal(refused.status, 403);
  });

  it('metadata changed on one instance is visible on the other at once', async () => {
    const listUrl = (s: Running) => `${s.url}/sites/test/_api/web/lists/getbytitle('Race')`;
    // B reads (and caches) the list's fields and the list.
    const before_ = await json(`${listUrl(b)}/fields?$filter=InternalName eq 'Colour'`);
    assert.equal(before_.body.value.length, 0);
    assert.equal((await json(`${listUrl(b)}?$select=Description`)).body.Description, '');
    // A adds a field and changes the list.
    const added = await json(`${listUrl(a)}/fields`, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose', 'Content-Type': 'application/json;odata=verbose' },
      body: JSON.stringify({ __metadata: { type: 'SP.Field' }, Title: 'Colour', FieldTypeKind: 2 }),
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const patched = await fetch(listUrl(a), {
      method: 'POST', headers: { Accept: NOMETA, 'Content-Type': 'application/json', 'X-HTTP-Method': 'MERGE', 'If-Match': '*' },
      body: JSON.stringify({ Description: 'changed on A' }),
    });
    assert.equal(patched.status, 204);
    // B sees both, and can write the new field.
    const fields = await json(`${listUrl(b)}/fields?$filter=InternalName eq 'Colour'`);
    assert.equal(fields.body.value.length, 1);
    assert.equal((await json(`${listUrl(b)}?$select=Description`)).body.Description, 'changed on A');
    const item = await json(items(b), { method: 'POST', body: JSON.stringify({ Title: 'coloured', Colour: 'teal' }) });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    assert.equal(item.body.Colour, 'teal');
    // Item counts move on both (list records are not cached across instances).
    const countA = (await json(`${listUrl(a)}?$select=ItemCount`)).body.ItemCount;
    const countB = (await json(`${listUrl(b)}?$select=ItemCount`)).body.ItemCount;
    assert.equal(countA, countB);
  });
});

describe('a PostgreSQL database that goes away and comes back', { skip }, () => {
  let cluster: Cluster;
  let server: Running;

  before(async () => {
    // A cluster of its own: stopping the shared one would fail every other test.
    cluster = await startCluster();
    const db = await cluster.createDatabase();
    server = await startServer({
      db, port: 0, logLevel: 'silent', seed: DEMO_TENANT, tokenSecret: SECRET, anonymousUser: firstOwner(DEMO_TENANT),
    });
  });
  after(async () => {
    await server?.close();
    await cluster?.destroy();
  });

  it('answers 503 with Retry-After and a SharePoint error body while it is down, then 200 again without a restart', async () => {
    const url = `${server.url}/sites/dev/_api/web/lists/getbytitle('Tasks')/items?$top=5`;
    const get = async () => {
      const r = await fetch(url, { headers: { Accept: NOMETA } });
      return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text() };
    };
    // Load while the database stops.
    let stop = false;
    const seen: number[] = [];
    const load = (async () => { while (!stop) seen.push((await get()).status); })();
    await new Promise((r) => setTimeout(r, 200));
    cluster.stop();
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await load;
    assert.ok(seen.every((s) => s === 200 || s === 503), `only 200 and 503, got ${[...new Set(seen)].join(',')}`);

    const down = await get();
    assert.equal(down.status, 503, down.body);
    assert.ok(Number(down.retryAfter) > 0, 'Retry-After');
    const error = JSON.parse(down.body)['odata.error'];
    assert.equal(error.code, '-1, Microsoft.SharePoint.Client.UnknownError');
    assert.equal(error.message.value, 'The server is busy. Try again later.');

    cluster.start();
    let up = await get();
    for (let i = 0; up.status !== 200 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      up = await get();
    }
    assert.equal(up.status, 200, up.body);
    // Writes work again too.
    const created = await fetch(url.split('?')[0]!, {
      method: 'POST', headers: { Accept: NOMETA, 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'after the outage' }),
    });
    assert.equal(created.status, 201);
  });

  it('reads of one item by many requests at once (the pipelined hot-read connections): only 200 and 503 while it stops, then 200 for all', async () => {
    const url = `${server.url}/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/Title&$expand=Author`;
    const get = async () => (await fetch(url, { headers: { Accept: NOMETA } })).status;
    const burst = () => Promise.all(Array.from({ length: 16 }, get));
    assert.deepEqual(new Set(await burst()), new Set([200]));
    let stop = false;
    const seen: number[] = [];
    const loaders = Array.from({ length: 16 }, async () => { while (!stop) seen.push(await get()); });
    await new Promise((r) => setTimeout(r, 200));
    cluster.stop();
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(loaders);
    assert.ok(seen.every((s) => s === 200 || s === 503), `only 200 and 503, got ${[...new Set(seen)].join(',')}`);
    assert.deepEqual(new Set(await burst()), new Set([503]));
    cluster.start();
    let statuses = await burst();
    for (let i = 0; statuses.some((s) => s !== 200) && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      statuses = await burst();
    }
    assert.deepEqual(new Set(statuses), new Set([200]), 'every request of a burst answered again after the restart');
  });
});
