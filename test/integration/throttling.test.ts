// `--throttle` against a real spemu: SharePoint's throttling on the wire (429 with integer
// Retry-After, RateLimit-* from 80 % of the app's budget, 503 for a blocked app, bodies in the
// request's dialect), budgets per app (the bearer token's appid), `$batch` parts charged alone,
// and an unmodified PnPjs 4 with its default retry (NodeFetchWithRetry, as SPDefault sets up)
// riding out a burst. Windows are seconds long so the waits are real but short.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { spfi, DefaultHeaders, DefaultInit, type SPFI } from '@pnp/sp';
import { DefaultParse, InjectHeaders } from '@pnp/queryable';
import { NodeFetchWithRetry } from '@pnp/nodejs';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/batching.js';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-batching-types.ts';
import { DEMO } from '../helpers/profiles.ts';

const SECRET = randomBytes(32).toString('base64url');

async function tokenFor(upn: string, appid?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({ upn, ...(appid ? { appid } : {}) }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now)
    .setExpirationTime(now + 3600).sign(new TextEncoder().encode(SECRET));
  return `Bearer ${jwt}`;
}

const NOMETADATA = 'application/json;odata=nometadata';

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: any }> {
  const r = await fetch(url, { headers: { Accept: NOMETADATA, ...headers } });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

/** Waits until the window of `ms` has slid past everything spent so far. */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('throttling on the wire', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ tokenSecret: SECRET, throttle: 'app-ru=5/3s' }); });
  after(async () => { await server.close(); });

  it('admits within the app budget, sends RateLimit-* from 80 %, then 429 with integer Retry-After and RateLimit-Reset', async () => {
    const auth = { Authorization: await tokenFor(DEMO.alice.upn, 'app-one') };
    const web = `${server.site()}/_api/web`;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get(web, auth));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200, 429]);
    assert.equal(answers[2]!.headers.get('ratelimit-limit'), null, '3 of 5 is below 80 %');
    assert.equal(answers[3]!.headers.get('ratelimit-limit'), '5', '4 of 5 is 80 %');
    assert.equal(answers[3]!.headers.get('ratelimit-remaining'), '1');
    assert.match(answers[3]!.headers.get('ratelimit-reset')!, /^[1-3]$/);
    assert.equal(answers[4]!.headers.get('ratelimit-remaining'), '0');
    const throttled = answers[5]!;
    assert.match(throttled.headers.get('retry-after')!, /^[1-3]$/, 'whole seconds: PnPjs reads it with parseInt');
    assert.equal(throttled.headers.get('ratelimit-reset'), throttled.headers.get('retry-after'));
    assert.equal(throttled.headers.get('ratelimit-remaining'), '0');
    assert.match(throttled.headers.get('content-type')!, /odata=nometadata/);
    assert.equal(throttled.json['odata.error'].code, '-1, Microsoft.SharePoint.SPServerTooBusyException');
    assert.match(throttled.json['odata.error'].message.value, /throttled/);
    assert.equal(throttled.headers.get('x-spemu-throttle'), null, 'no spemu-only header without --faults-debug');

    // Another app has a budget of its own; the same app in verbose gets verbose's envelope.
    assert.equal((await get(web, { Authorization: await tokenFor(DEMO.alice.upn, 'app-two') })).status, 200);
    const verbose = await get(web, { ...auth, Accept: 'application/json;odata=verbose' });
    assert.equal(verbose.status, 429);
    assert.equal(verbose.json.error.code, '-1, Microsoft.SharePoint.SPServerTooBusyException');

    // After Retry-After (the throttled requests count too, as SharePoint documents) the app is served again.
    await pause(Number(verbose.headers.get('retry-after')) * 1000);
    assert.equal((await get(web, auth)).status, 200);
  });

  it('charges each $batch part alone: the parts over the budget answer 429 in their own part, the rest succeed', async () => {
    const auth = await tokenFor(DEMO.alice.upn, 'app-batch');
    const parts = Array.from({ length: 7 }, (_, i) => [
      '--batch_t', 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
      `GET ${server.site()}/_api/web/lists/getbytitle('Tasks')/items(${i + 1}) HTTP/1.1`, `Accept: ${NOMETADATA}`, '', ''].join('\r\n'));
    const r = await fetch(`${server.site()}/_api/$batch`, {
      method: 'POST', body: `${parts.join('')}--batch_t--\r\n`,
      headers: { Authorization: auth, 'Content-Type': 'multipart/mixed; boundary=batch_t', Accept: 'application/json' },
    });
    assert.equal(r.status, 200, 'the batch itself is not throttled');
    const text = await r.text();
    const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    // 7 single-item reads of 1 RU against 5 RU: parts 6 and 7 are throttled.
    assert.equal(statuses.length, 7);
    assert.deepEqual(statuses.slice(5), [429, 429]);
    assert.ok(statuses.slice(0, 5).every((s) => s !== 429), `first five not throttled: ${statuses.join(',')}`);
    assert.match(text, /RETRY-AFTER: [1-3]\r\n/);
    assert.match(text, /RATELIMIT-RESET: [1-3]\r\n/);
    assert.match(text, /SPServerTooBusyException/);
  });
});

describe('a blocked app', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ tokenSecret: SECRET, throttle: 'app-ru=1/10s,block-after=2/1m,block-for=30s' }); });
  after(async () => { await server.close(); });

  it('answers 503 with Retry-After for as long as the block lasts, after too many throttled requests', async () => {
    const auth = { Authorization: await tokenFor(DEMO.alice.upn, 'abusive') };
    const web = `${server.site()}/_api/web`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await get(web, auth));
    assert.deepEqual(statuses.map((s) => s.status), [200, 429, 503, 503]);
    assert.equal(statuses[2]!.headers.get('retry-after'), '30');
    assert.match(statuses[3]!.headers.get('retry-after')!, /^(29|30)$/);
    assert.match(statuses[3]!.json['odata.error'].message.value, /blocked/);
    assert.equal((await get(web, { Authorization: await tokenFor(DEMO.alice.upn, 'polite') })).status, 200, 'other apps are not blocked');
  });
});

describe('PnPjs 4 against --throttle', () => {
  let server: TestServer;
  let sp: SPFI;
  const seen: number[] = [];
  const realFetch = globalThis.fetch;
  before(async () => {
    server = await startTestServer({ tokenSecret: SECRET, throttle: 'app-ru=4/2s' });
    const auth = await tokenFor(DEMO.alice.upn, 'pnp-app');
    // NodeFetchWithRetry is what @pnp/nodejs's SPDefault installs; the headers stand in for its MSAL behaviour.
    sp = spfi(server.site()).using(DefaultHeaders(), DefaultInit(), NodeFetchWithRetry(), DefaultParse(), InjectHeaders({ Authorization: auth }));
    // Every status PnPjs receives, without changing what it does (it calls the global fetch).
    globalThis.fetch = async (input, init) => {
      const r = await realFetch(input, init);
      seen.push(r.status);
      return r;
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await server.close();
  });

  it('a burst gets 429 with Retry-After; PnPjs waits as told and every call succeeds', async () => {
    seen.length = 0;
    const started = Date.now();
    const titles = await Promise.all(Array.from({ length: 7 }, () => sp.web.select('Title')()));
    assert.equal(titles.length, 7);
    assert.ok(titles.every((w) => typeof w.Title === 'string'));
    assert.ok(seen.filter((s) => s === 429).length >= 3, `throttled answers seen: ${seen.join(',')}`);
    assert.equal(seen.filter((s) => s === 200).length, 7);
    assert.ok(Date.now() - started >= 1000, 'PnPjs waited Retry-After seconds before retrying');
  });

  it('a $batch with throttled parts: PnPjs retries nothing (the batch answered 200); the throttled parts reject with 429, the rest resolve', async () => {
    await pause(2100);
    seen.length = 0;
    const [batched, execute] = sp.batched();
    const list = batched.web.lists.getByTitle('Tasks');
    const calls = Array.from({ length: 6 }, (_, i) => list.items.getById(i + 1).select('Id')());
    await execute();
    const settled = await Promise.allSettled(calls);
    assert.deepEqual(seen, [200], 'one $batch request, not retried');
    const rejected = settled.filter((s) => s.status === 'rejected') as PromiseRejectedResult[];
    assert.equal(rejected.length, 2, '6 reads of 1 RU against 4 RU');
    for (const r of rejected) assert.equal((r.reason as { status?: number }).status, 429);
    assert.deepEqual(settled.slice(0, 4).map((s) => s.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
  });
});
