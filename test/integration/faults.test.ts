// Fault rules against a real spemu, each observed on the wire with plain fetch: an error with
// SharePoint's body in two dialects, named errors, latency within its bounds, a dropped
// connection (a fetch error; with drop=after the write still happened), a body cut short, a
// `$batch` whose matching parts fail alone, seeded rates replayed exactly, the file URL front,
// faults.json reloaded when it changes, and /_spemu/faults at run time (site owners only).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, useTestServer, type TestServer } from '../helpers/server.ts';
import { basic, DEMO } from '../helpers/profiles.ts';

const NOMETADATA = 'application/json;odata=nometadata';
const VERBOSE = 'application/json;odata=verbose';

async function setFaults(base: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/_spemu/faults`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } });
}

const elapsed = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};

describe('fault rules on the wire', () => {
  const ctx = useTestServer();
  const site = () => ctx.server.site();
  const set = async (rules: unknown[], seed?: number) => {
    const r = await setFaults(ctx.server.url, { rules, ...(seed === undefined ? {} : { seed }) });
    assert.equal(r.status, 200, await r.clone().text());
  };

  it('an error rule answers SharePoint\'s error for its status, in the request\'s dialect, with Retry-After for 503', async () => {
    await set([{ name: 'busy web', method: 'GET', path: '/sites/dev/_api/web', error: 503, retryAfter: 7 }]);
    const light = await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } });
    assert.equal(light.status, 503);
    assert.equal(light.headers.get('retry-after'), '7');
    assert.match(light.headers.get('content-type')!, /odata=nometadata/);
    const body = await light.json() as { 'odata.error': { code: string; message: { lang: string; value: string } } };
    assert.equal(body['odata.error'].code, '-1, Microsoft.SharePoint.Client.UnknownError');
    assert.equal(body['odata.error'].message.lang, 'en-US');
    assert.equal(light.headers.get('x-spemu-fault'), null, 'no spemu-only header without --faults-debug');
    assert.ok(light.headers.get('sprequestguid'), 'SharePoint\'s own headers are there');

    const verbose = await fetch(`${site()}/_api/web`, { headers: { Accept: VERBOSE } });
    assert.equal(verbose.status, 503);
    const vbody = await verbose.json() as { error: { code: string; message: { value: string } } };
    assert.equal(vbody.error.code, '-1, Microsoft.SharePoint.Client.UnknownError');

    assert.equal((await fetch(`${site()}/_api/web/lists`, { headers: { Accept: NOMETADATA } })).status, 200, 'other paths untouched');
    assert.equal((await fetch(`${site()}/_api/web`, { method: 'POST', headers: { Accept: NOMETADATA, 'X-HTTP-Method': 'MERGE', 'Content-Type': 'application/json' }, body: '{}' })).status !== 503, true, 'other methods untouched');
  });

  it('429, 500 and 504, and the named errors: the list view threshold and -2130575252 security validation', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [429, 429, /SPServerTooBusyException/],
      [500, 500, /UnknownError/],
      [504, 504, /UnknownError/],
      ['listViewThreshold', 500, /^-2147024860, Microsoft\.SharePoint\.SPQueryThrottledException$/],
      ['securityValidation', 403, /^-2130575252, Microsoft\.SharePoint\.SPException$/],
    ];
    for (const [error, status, code] of cases) {
      await set([{ path: '*/_api/web/lists', error }]);
      const r = await fetch(`${site()}/_api/web/lists`, { headers: { Accept: NOMETADATA } });
      assert.equal(r.status, status, String(error));
      assert.match(((await r.json()) as { 'odata.error': { code: string } })['odata.error'].code, code);
      if (status === 429) assert.equal(r.headers.get('retry-after'), '5', 'Dev Proxy\'s default Retry-After');
    }
  });

  it('a rule for one user leaves the others alone', async () => {
    await set([{ user: DEMO.bob.upn, error: 500 }]);
    assert.equal((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA, Authorization: basic(DEMO.bob) } })).status, 500);
    assert.equal((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA, Authorization: basic(DEMO.alice) } })).status, 200);
  });

  it('latency: fixed and uniform, within their bounds', async () => {
    await set([{ path: '*/_api/web', latency: 300 }]);
    const fixed = await elapsed(() => fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } }).then((r) => r.text()));
    assert.ok(fixed >= 295 && fixed < 1500, `fixed 300 ms: ${fixed}`);
    await set([{ path: '*/_api/web', latency: { min: 150, max: 250 } }]);
    for (let i = 0; i < 3; i++) {
      const ms = await elapsed(() => fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } }).then((r) => r.text()));
      assert.ok(ms >= 145 && ms < 1400, `uniform 150–250 ms: ${ms}`);
    }
  });

  it('a dropped connection is a fetch error; with drop=after the write happened all the same', async () => {
    await set([{ method: 'GET', path: '*/_api/web', drop: true }]);
    await assert.rejects(fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } }), TypeError);

    await set([{ method: 'POST', path: "*/getbytitle('Tasks')/items", drop: 'after' }]);
    await assert.rejects(fetch(`${site()}/_api/web/lists/getbytitle('Tasks')/items`, {
      method: 'POST', headers: { Accept: NOMETADATA, 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'written before the drop' }),
    }), TypeError);
    await set([]);
    const found = await fetch(`${site()}/_api/web/lists/getbytitle('Tasks')/items?$filter=Title eq 'written before the drop'`, { headers: { Accept: NOMETADATA } });
    assert.equal(((await found.json()) as { value: unknown[] }).value.length, 1);
  });

  it('a truncated body: the status and headers arrive, the body ends early with a reset', async () => {
    await set([{ path: '*/_api/web', truncate: 20 }]);
    const r = await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } });
    assert.equal(r.status, 200);
    assert.ok(Number(r.headers.get('content-length')) > 20, 'the length of the whole body is announced');
    await assert.rejects(r.text(), TypeError);

    // The file URL front passes through the same stage.
    await set([{ path: '/sites/dev/Shared Documents/*', truncate: 3 }]);
    const file = await fetch(`${site()}/Shared%20Documents/meeting-notes.txt`);
    assert.equal(file.status, 200);
    await assert.rejects(file.arrayBuffer(), TypeError);
    await set([{ path: '/sites/dev/Shared Documents/*', error: 503 }]);
    assert.equal((await fetch(`${site()}/Shared%20Documents/meeting-notes.txt`)).status, 503);
  });

  it('ProjectData, download.aspx and profile photos pass through the same stage', async () => {
    await set([{ path: '*/_api/ProjectData/*', error: 500 }, { path: '*/_layouts/15/*', error: 503, retryAfter: 2 }]);
    const pd = await fetch(`${ctx.server.site('/sites/pwa')}/_api/ProjectData/Projects`, { headers: { Accept: NOMETADATA } });
    assert.equal(pd.status, 500);
    assert.equal(((await pd.json()) as { 'odata.error': { code: string } })['odata.error'].code, '-1, Microsoft.SharePoint.Client.UnknownError');
    const photo = await fetch(`${site()}/_layouts/15/userphoto.aspx?size=S&accountname=${DEMO.alice.email}`);
    assert.equal(photo.status, 503);
    assert.equal(photo.headers.get('retry-after'), '2');
    const download = await fetch(`${site()}/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent('/sites/dev/Shared Documents/meeting-notes.txt')}`);
    assert.equal(download.status, 503);
    await set([{ path: '*/_layouts/15/userphoto.aspx', drop: true }]);
    await assert.rejects(fetch(`${site()}/_layouts/15/userphoto.aspx?size=S&accountname=${DEMO.alice.email}`), TypeError);
    await set([]);
    assert.equal((await fetch(`${site()}/_layouts/15/userphoto.aspx?size=S&accountname=${DEMO.alice.email}`)).status, 200);
  });

  it('inside a $batch, the parts a rule matches fail in their own part; the others succeed', async () => {
    await set([{ path: "*/getbytitle('Tasks')/items(2)", error: 429, retryAfter: 3 }]);
    const parts = [1, 2, 3].map((id) => [
      '--b', 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
      `GET ${site()}/_api/web/lists/getbytitle('Tasks')/items(${id}) HTTP/1.1`, `Accept: ${NOMETADATA}`, '', ''].join('\r\n'));
    const r = await fetch(`${site()}/_api/$batch`, {
      method: 'POST', body: `${parts.join('')}--b--\r\n`, headers: { 'Content-Type': 'multipart/mixed; boundary=b', Accept: 'application/json' },
    });
    assert.equal(r.status, 200);
    const text = await r.text();
    assert.deepEqual([...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1])), [200, 429, 200]);
    assert.match(text, /RETRY-AFTER: 3\r\n/);
  });

  it('a rate with a seed fails the same requests every time the rules are set again', async () => {
    const run = async () => {
      await set([{ path: '*/_api/web', error: 500, rate: 0.5 }], 7);
      const statuses = [];
      for (let i = 0; i < 16; i++) statuses.push((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } })).status);
      return statuses;
    };
    const first = await run();
    assert.deepEqual(await run(), first);
    assert.ok(first.includes(500) && first.includes(200), first.join(','));
  });

  it('GET shows the rules, DELETE clears them, a wrong rule is a 400 that changes nothing, and only site owners may', async () => {
    await set([{ name: 'kept', error: 504 }], 3);
    const shown = await (await fetch(`${ctx.server.url}/_spemu/faults`)).json() as { seed: number; rules: Array<{ name: string; error: number }>; throttle: unknown };
    assert.equal(shown.seed, 3);
    assert.deepEqual(shown.rules.map((r) => [r.name, r.error]), [['kept', 504]]);
    assert.equal(shown.throttle, null);

    const bad = await setFaults(ctx.server.url, { rules: [{ error: 418 }] });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { 'odata.error': { message: { value: string } } })['odata.error'].message.value, /error must be one of/);
    assert.equal((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } })).status, 504, 'the rules in force stay');

    const visitor = await setFaults(ctx.server.url, { rules: [] }, { Authorization: basic(DEMO.dave) });
    assert.equal(visitor.status, 403, 'a visitor owns no site');
    assert.equal((await fetch(`${ctx.server.url}/_spemu/faults`, { method: 'DELETE', headers: { Authorization: basic(DEMO.bob) } })).status, 403);

    assert.equal((await fetch(`${ctx.server.url}/_spemu/faults`, { method: 'DELETE' })).status, 204);
    assert.equal((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } })).status, 200);
    const cleared = await (await fetch(`${ctx.server.url}/_spemu/faults`)).json() as { rules: unknown[] };
    assert.deepEqual(cleared.rules, []);
  });

  it('throttling too can be switched on and off at run time', async () => {
    await setFaults(ctx.server.url, { throttle: 'app-ru=2/10s' });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    await setFaults(ctx.server.url, { throttle: null });
    assert.equal((await fetch(`${site()}/_api/web`, { headers: { Accept: NOMETADATA } })).status, 200);
  });
});

describe('--faults-debug', () => {
  const ctx = useTestServer({ faultsDebug: true, faults: { rules: [{ name: 'debugged', path: '*/_api/web', error: 500 }] } });
  it('marks a faulted answer with the rule that fired', async () => {
    const r = await fetch(`${ctx.server.site()}/_api/web`, { headers: { Accept: NOMETADATA } });
    assert.equal(r.status, 500);
    assert.equal(r.headers.get('x-spemu-fault'), 'debugged');
  });
});

describe('--faults faults.json', () => {
  let server: TestServer;
  let dir: string;
  let file: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spemu-faults-'));
    file = join(dir, 'faults.json');
    writeFileSync(file, JSON.stringify({ rules: [{ path: '*/_api/web', error: 503 }] }));
    server = await startTestServer({ faults: file });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const status = async () => (await fetch(`${server.site()}/_api/web`, { headers: { Accept: NOMETADATA } })).status;
  async function until(expected: number): Promise<void> {
    for (let i = 0; i < 40; i++) {
      if (await status() === expected) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(await status(), expected);
  }

  it('applies the file\'s rules, reloads them when the file changes, and keeps them when it becomes invalid', async () => {
    assert.equal(await status(), 503);
    writeFileSync(file, JSON.stringify({ rules: [{ path: '*/_api/web', error: 504 }] }));
    await until(504);
    writeFileSync(file, '{ "rules": [ { "error": "nonsense" } ] }  ');
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(await status(), 504, 'an invalid file leaves the rules in force');
    writeFileSync(file, JSON.stringify({ rules: [] }));
    await until(200);
  });

  it('refuses to start with a file that is not valid', async () => {
    writeFileSync(join(dir, 'bad.json'), '{ "rules": [ { "drop": "sideways" } ] }');
    await assert.rejects(startTestServer({ faults: join(dir, 'bad.json') }), /drop must be/);
  });
});
