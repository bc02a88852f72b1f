// `POST {site}/_api/$batch` against a real spemu (demo tenant, :memory:): the exact response
// framing on the wire (reference §9.2), parts running in order through the same pipeline,
// envelope errors, digest rules, and an unmodified PnPjs 4 batching as its own tests use it.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/batching.js';
import { useTestServer } from '../helpers/server.ts';
import { pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-batching-types.ts';
import { basic, DEMO, digestFor } from '../helpers/profiles.ts';

const GUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TASKS = "web/lists/getbytitle('Tasks')";

interface Req { method: string; url: string; headers?: Record<string, string>; body?: unknown }
type Entry = Req | { changeset: Req[] };

/** A batch body as clients write it: `eol` '\n' as PnPjs, '\r\n' as Microsoft's examples. */
function batchBody(boundary: string, entries: Entry[], eol = '\n'): string {
  const lines: string[] = [];
  const request = (r: Req) => {
    lines.push('Content-Type: application/http', 'Content-Transfer-Encoding: binary', '', `${r.method} ${r.url} HTTP/1.1`);
    for (const [k, v] of Object.entries(r.headers ?? { Accept: 'application/json;odata=nometadata' })) lines.push(`${k}: ${v}`);
    lines.push('');
    if (r.body !== undefined) lines.push(typeof r.body === 'string' ? r.body : JSON.stringify(r.body), '');
  };
  entries.forEach((entry, i) => {
    lines.push(`--${boundary}`);
    if ('changeset' in entry) {
      const cs = `changeset_${i}`;
      lines.push(`Content-Type: multipart/mixed; boundary="${cs}"`, '');
      for (const r of entry.changeset) { lines.push(`--${cs}`); request(r); }
      lines.push(`--${cs}--`, '');
    } else {
      request(entry);
    }
  });
  lines.push(`--${boundary}--`, '');
  return lines.join(eol);
}

interface Part { status: number; statusText: string; headers: Record<string, string>; body: string; partHeaders: string[] }
interface BatchResult { status: number; contentType: string; boundary: string; raw: string; parts: Part[]; json: any }

/** Sends a batch and reads the response strictly: CRLF only, flat parts, the closing delimiter and one line break. */
async function sendBatch(site: string, body: string, init: { boundary?: string; headers?: Record<string, string> } = {}): Promise<BatchResult> {
  const r = await fetch(`${site}/_api/$batch`, {
    method: 'POST', body,
    headers: { 'Content-Type': `multipart/mixed; boundary=${init.boundary ?? /^--(\S+)/.exec(body)?.[1] ?? 'batch_1'}`, Accept: 'application/json', ...init.headers },
  });
  const raw = await r.text();
  const contentType = r.headers.get('content-type') ?? '';
  const m = /^multipart\/mixed; boundary=(batchresponse_[0-9a-f-]{36})$/.exec(contentType);
  if (r.status !== 200 || !m) return { status: r.status, contentType, boundary: '', raw, parts: [], json: JSON.parse(raw) };
  const boundary = m[1]!;
  assert.match(boundary, new RegExp(`^batchresponse_${GUID}$`));
  assert.ok(!raw.replace(/\r\n/g, '').includes('\n'), 'every line ends in CRLF');
  assert.ok(raw.endsWith(`--${boundary}--\r\n`) && !raw.endsWith(`\r\n--${boundary}--\r\n\r\n`), 'closing delimiter, then exactly one line break');
  assert.ok(!/changeset/i.test(raw.replace(/"[^"]*"/g, '')), 'no nested changesetresponse');
  const chunks = raw.slice(0, -`--${boundary}--\r\n`.length).split(`--${boundary}\r\n`);
  assert.equal(chunks.shift(), '', 'nothing before the first delimiter');
  const parts = chunks.map((chunk) => {
    const [partHead, rest] = splitOnce(chunk, '\r\n\r\n');
    const [head, body] = splitOnce(rest, '\r\n\r\n');
    const [statusLine, ...headerLines] = head.split('\r\n');
    const s = /^HTTP\/1\.1 (\d{3}) (.+)$/.exec(statusLine!);
    assert.ok(s, `status line: ${statusLine}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const name = line.slice(0, line.indexOf(':'));
      assert.equal(name, name.toUpperCase(), `inner header names are upper case: ${line}`);
      headers[name] = line.slice(line.indexOf(':') + 1).trim();
    }
    assert.ok(body === '' || body.endsWith('\r\n'), 'a body ends with the line break before the next delimiter');
    return { status: Number(s[1]), statusText: s[2]!, headers, body: body.replace(/\r\n$/, ''), partHeaders: partHead.split('\r\n') };
  });
  return { status: r.status, contentType, boundary, raw, parts, json: undefined };
}

function splitOnce(text: string, sep: string): [string, string] {
  const at = text.indexOf(sep);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + sep.length)];
}

const json = (p: Part) => JSON.parse(p.body);
const itemCount = async (site: string, list = 'Tasks') =>
  ((await (await fetch(`${site}/_api/web/lists/getbytitle('${list}')?$select=ItemCount`, { headers: { Accept: 'application/json;odata=nometadata' } })).json()) as { ItemCount: number }).ItemCount;
async function newList(site: string, title: string): Promise<void> {
  const r = await fetch(`${site}/_api/web/lists`, {
    method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ Title: title, BaseTemplate: 100 }),
  });
  assert.equal(r.status, 201, await r.text());
}

describe('$batch on the wire (reference §9)', () => {
  const spemu = useTestServer();
  let site: string;
  before(() => { site = spemu.server.site(); });

  it('answers one flat CRLF part per request, changeset members included, with SharePoint framing', async () => {
    await newList(site, 'Framing');
    const list = `${site}/_api/web/lists/getbytitle('Framing')`;
    const write = { Accept: 'application/json', 'Content-Type': 'application/json;charset=utf-8' };
    const r = await sendBatch(site, batchBody('batch_1', [
      { method: 'GET', url: `${site}/_api/web?$select=Title` },
      { changeset: [
        { method: 'POST', url: `${list}/items`, headers: write, body: { Title: 'one' } },
        { method: 'MERGE', url: `${list}/items(1)`, headers: { ...write, 'IF-Match': '*' }, body: { Title: 'uno' } },
      ] },
      { method: 'GET', url: `${list}/items(1)?$select=Title` },
      { changeset: [{ method: 'DELETE', url: `${list}/items(1)`, headers: { 'IF-MATCH': '*' } }] },
    ]));
    assert.equal(r.status, 200);
    assert.deepEqual(r.parts.map((p) => `${p.status} ${p.statusText}`), ['200 OK', '201 Created', '204 No Content', '200 OK', '200 OK']);
    for (const p of r.parts) assert.deepEqual(p.partHeaders, ['Content-Type: application/http', 'Content-Transfer-Encoding: binary']);
    assert.deepEqual(json(r.parts[0]!), { Title: 'Dev' });
    assert.equal(r.parts[0]!.headers['CONTENT-TYPE'], 'application/json;odata=nometadata;streaming=true;charset=utf-8');
    const created = r.parts[1]!;
    assert.deepEqual(Object.keys(created.headers), ['CONTENT-TYPE', 'ETAG', 'LOCATION']);
    assert.match(created.headers.LOCATION!, /\/_api\/Web\/Lists\(guid'[0-9a-f-]{36}'\)\/Items\(1\)$/);
    assert.equal(json(created).Title, 'one');
    // 204: the status line, its headers, a blank line, then straight to the next delimiter.
    assert.equal(r.parts[2]!.body, '');
    assert.ok(r.raw.includes(`HTTP/1.1 204 No Content\r\nETAG: "2"\r\n\r\n--${r.boundary}\r\n`));
    assert.deepEqual(json(r.parts[3]!), { Title: 'uno' });
    assert.equal(await itemCount(site, 'Framing'), 0);
  });

  it('reads CRLF bodies, relative and origin-relative URLs, unquoted boundaries and any header case', async () => {
    const body = [
      '--batch_crlf', 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
      `GET ${TASKS}/items(1)?$select=Title HTTP/1.1`, 'accept: application/json;odata=verbose', '', '',
      '--batch_crlf', 'Content-Type: multipart/mixed; boundary=changeset_crlf', '',
      '--changeset_crlf', 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
      `PATCH /sites/dev/_api/${TASKS}/items(2) HTTP/1.1`, 'CONTENT-TYPE: application/json', 'ACCEPT: application/json', 'if-match: "99"', '',
      '{"Title":"stale"}', '',
      '--changeset_crlf--', '',
      '--batch_crlf', 'Content-Type: application/http', '',
      `POST ${TASKS}/items(3) HTTP/1.1`, 'X-HTTP-Method: MERGE', 'If-Match: *', 'Content-Type: application/json', '', '{"Title":"Tunnelled"}', '',
      '--batch_crlf--', '',
    ].join('\r\n');
    const r = await sendBatch(site, body, { boundary: 'batch_crlf' });
    assert.deepEqual(r.parts.map((p) => p.status), [200, 412, 204]);
    assert.equal(json(r.parts[0]!).d.Title, 'Write spec');
    assert.equal(r.parts[0]!.headers['CONTENT-TYPE'], 'application/json;odata=verbose;charset=utf-8');
    assert.match(json(r.parts[1]!)['odata.error'].message.value, /ETag value '"99"' does not match/);
    const item = await (await fetch(`${site}/_api/${TASKS}/items(3)?$select=Title`, { headers: { Accept: 'application/json;odata=nometadata' } })).json();
    assert.deepEqual(item, { Title: 'Tunnelled' });
  });

  it('a failing part in the middle answers its own error (in its own dialect); the rest still run', async () => {
    await newList(site, 'Middle');
    const items = `${site}/_api/web/lists/getbytitle('Middle')/items`;
    const r = await sendBatch(site, batchBody('batch_m', [{ changeset: [
      { method: 'POST', url: items, headers: { 'Content-Type': 'application/json' }, body: { Title: 'first' } },
      { method: 'POST', url: `${site}/_api/web/lists/getbytitle('Missing')/items`, headers: { Accept: 'application/json;odata=verbose', 'Content-Type': 'application/json' }, body: { Title: 'x' } },
      { method: 'POST', url: items, headers: { 'Content-Type': 'application/json' }, body: '{"Title": broken' },
      { method: 'POST', url: items, headers: { 'Content-Type': 'application/json' }, body: { Title: 'last' } },
    ] }, { method: 'GET', url: `${items}?$select=Title&$orderby=Id` }]));
    assert.deepEqual(r.parts.map((p) => p.status), [201, 404, 400, 201, 200]);
    assert.deepEqual(json(r.parts[1]!), { error: { code: '-1, System.ArgumentException', message: { lang: 'en-US', value: `List 'Missing' does not exist at site with URL '${site}'.` } } });
    assert.equal(r.parts[1]!.headers['CONTENT-TYPE'], 'application/json;odata=verbose;charset=utf-8');
    assert.deepEqual(json(r.parts[4]!).value, [{ Title: 'first' }, { Title: 'last' }]);
  });

  it('writes are visible to later parts; changesets are not transactional', async () => {
    await newList(site, 'Visible');
    const items = `${site}/_api/web/lists/getbytitle('Visible')/items`;
    const add = (title: string) => ({ method: 'POST', url: items, headers: { 'Content-Type': 'application/json' }, body: { Title: title } });
    const r = await sendBatch(site, batchBody('batch_v', [
      { changeset: [add('a'), add('b'), { method: 'MERGE', url: `${items}(2)`, headers: { 'If-Match': '"5"', 'Content-Type': 'application/json' }, body: { Title: 'never' } }] },
      { method: 'GET', url: `${items}?$filter=Title eq 'b'&$select=Id,Title` },
      { changeset: [{ method: 'DELETE', url: `${items}(1)`, headers: { 'If-Match': '*' } }] },
      { method: 'GET', url: `${items}?$select=Title` },
    ]));
    assert.deepEqual(r.parts.map((p) => p.status), [201, 201, 412, 200, 200, 200]);
    assert.deepEqual(json(r.parts[3]!).value, [{ Id: 2, Title: 'b' }]);
    assert.deepEqual(json(r.parts[5]!).value, [{ Title: 'b' }]);
  });

  it('parts must address the batch\'s site; a part with no request line or a nested $batch answers 400 alone', async () => {
    const body = [
      '--b', 'Content-Type: application/http', '', `GET ${spemu.server.site('/sites/pwa')}/_api/web HTTP/1.1`, '', '',
      '--b', 'Content-Type: application/http', '', 'GET https://elsewhere.example/sites/nowhere/_api/web HTTP/1.1', '', '',
      '--b', 'Content-Type: application/http', '', '', '',
      '--b', 'Content-Type: application/http', '', 'POST $batch HTTP/1.1', '', '',
      '--b', 'Content-Type: application/http', '', 'GET web?$select=Title HTTP/1.1', 'Accept: application/atom+xml', '', '',
      '--b', 'Content-Type: application/http', '', 'GET web?$select=Title HTTP/1.1', 'Accept: application/json;odata=nometadata', '', '',
      '--b--', '',
    ].join('\n');
    const r = await sendBatch(site, body, { boundary: 'b' });
    assert.deepEqual(r.parts.map((p) => p.status), [400, 400, 400, 400, 406, 200]);
    assert.match(json(r.parts[0]!)['odata.error'].message.value, /must target the same site/);
    assert.equal(json(r.parts[0]!)['odata.error'].code, '-1, Microsoft.Data.OData.ODataException');
    assert.match(json(r.parts[2]!)['odata.error'].message.value, /no request line/);
    assert.deepEqual(json(r.parts[5]!), { Title: 'Dev' });
  });

  it('an envelope that cannot be read is refused whole (400, SharePoint error body), nothing applied', async () => {
    const before = await itemCount(site);
    const add = { method: 'POST', url: `${TASKS}/items`, headers: { 'Content-Type': 'application/json' }, body: { Title: 'never' } };
    const good = batchBody('batch_t', [{ changeset: [add] }, { changeset: [add] }]);
    const cases: Array<[string, string, string]> = [
      ['truncated', good.slice(0, good.lastIndexOf('--batch_t--')), 'batch_t'],
      ['unknown boundary', good, 'batch_other'],
      ['garbage', '\u0000\u00ff garbage', 'batch_t'],
      ['nested changesets', batchBody('batch_n', [{ changeset: [] }]).replace('--changeset_0--', '--changeset_0\nContent-Type: multipart/mixed; boundary=deeper\n\n--deeper--\n--changeset_0--'), 'batch_n'],
      ['1001 requests', batchBody('batch_l', Array.from({ length: 1001 }, () => add)), 'batch_l'],
    ];
    for (const [name, body, boundary] of cases) {
      const r = await sendBatch(site, body, { boundary });
      assert.equal(r.status, 400, name);
      assert.equal(r.json['odata.error'].code, '-1, Microsoft.Data.OData.ODataException', name);
    }
    const none = await fetch(`${site}/_api/$batch`, { method: 'POST', body: good, headers: { 'Content-Type': 'multipart/mixed', Accept: 'application/json;odata=verbose' } });
    assert.equal(none.status, 400);
    assert.match(((await none.json()) as any).error.message.value, /multipart\/mixed with a boundary/);
    assert.equal((await fetch(`${site}/_api/$batch`)).status, 405);
    assert.equal(await itemCount(site), before);
  });

  it('1000 requests is within the limit', async () => {
    const r = await sendBatch(site, batchBody('batch_k', Array.from({ length: 1000 }, () => ({ method: 'GET', url: 'web?$select=Title' }))));
    assert.equal(r.parts.length, 1000);
    assert.ok(r.parts.every((p) => p.status === 200));
  });
});

describe('$batch digest rules (reference §6, §9.1)', () => {
  const spemu = useTestServer({ anonymousUser: undefined });
  let site: string;
  before(() => { site = spemu.server.site(); });

  const body = () => batchBody('batch_d', [
    { method: 'GET', url: 'web/currentuser?$select=Email' },
    { changeset: [{ method: 'POST', url: `${TASKS}/items`, headers: { 'Content-Type': 'application/json' }, body: { Title: 'by alice' } }] },
  ]);

  it('no credentials → 401 for the whole batch', async () => {
    const r = await fetch(`${site}/_api/$batch`, { method: 'POST', body: body(), headers: { 'Content-Type': 'multipart/mixed; boundary=batch_d' } });
    assert.equal(r.status, 401);
  });

  it('Basic without a digest → 403 for the batch; with one from contextinfo, the parts run as the batch\'s user without digests of their own', async () => {
    const before = await itemCount(site).catch(() => undefined);
    assert.equal(before, undefined); // anonymous reads are refused too
    const refused = await sendBatch(site, body(), { boundary: 'batch_d', headers: { Authorization: basic(DEMO.alice) } });
    assert.equal(refused.status, 403);
    assert.match(refused.json['odata.error'].message.value, /security validation/);
    const digest = (await digestFor(site, DEMO.alice))!;
    const r = await sendBatch(site, body(), { boundary: 'batch_d', headers: { Authorization: basic(DEMO.alice), 'X-RequestDigest': digest } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.parts.map((p) => p.status), [200, 201]);
    assert.deepEqual(json(r.parts[0]!), { Email: DEMO.alice.email });
    // Bob is a member: his batch runs as Bob.
    const bob = await sendBatch(site, batchBody('batch_b', [{ method: 'GET', url: 'web/currentuser?$select=Email' }]),
      { boundary: 'batch_b', headers: { Authorization: basic(DEMO.bob), 'X-RequestDigest': (await digestFor(site, DEMO.bob))! } });
    assert.deepEqual(json(bob.parts[0]!), { Email: DEMO.bob.email });
  });
});

describe('$batch with PnPjs 4 batching, unmodified', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  before(() => { sp = pnpFor(spemu.server.site()); });

  for (const count of [3, 4]) {
    it(`resolves ${count} requests in the order they were added (${count % 2 ? 'odd' : 'even'} count)`, async () => {
      const [batchedSP, execute] = sp.batched();
      const order: number[] = [];
      const done: Array<Promise<unknown>> = [];
      for (let i = 1; i <= count; i++) {
        done.push(batchedSP.web.lists.getByTitle('Tasks').items.getById(i).select('Id')().then((item: any) => { order.push(i); return item.Id; }));
      }
      await execute();
      assert.deepEqual(order, Array.from({ length: count }, (_, i) => i + 1));
      assert.deepEqual(await Promise.all(done), order);
    });
  }

  it('reused queryables, and instances still usable unbatched after execute', async () => {
    const [batchedSP, execute] = sp.batched();
    // One list queryable: its children are new instances, and it is itself invoked once (PnPjs refuses a second call).
    const list = batchedSP.web.lists.getByTitle('Tasks');
    const [items, fields, title] = [list.items.select('Id').top(2)(), list.fields.getByInternalNameOrTitle('Title').select('InternalName')(), list.select('Title')()];
    await execute();
    assert.equal(((await title) as any).Title, 'Tasks');
    assert.equal(((await items) as any[]).length, 2);
    assert.equal(((await fields) as any).InternalName, 'Title');
    assert.equal(((await sp.web.lists.getByTitle('Tasks').select('Title')()) as any).Title, 'Tasks');
  });

  it('adds inside a batch, and mixed reads and writes in order', async () => {
    await sp.web.lists.add('PnP Batch', '', 100);
    const items = () => batchedSP.web.lists.getByTitle('PnP Batch').items;
    const [batchedSP, execute] = sp.batched();
    const added = ['a', 'b', 'c'].map((Title) => items().add({ Title }));
    const read = items().select('Title').orderBy('Id')();
    const update = items().getById(2).update({ Title: 'B' });
    const readAgain = items().select('Title').orderBy('Id')();
    const del = items().getById(1).delete();
    await execute();
    assert.deepEqual((await Promise.all(added)).map((r: any) => [r.Id, r.Title]), [[1, 'a'], [2, 'b'], [3, 'c']]);
    assert.deepEqual((await read as any[]).map((i) => i.Title), ['a', 'b', 'c']);
    assert.ok(((await update) as any).etag);
    assert.deepEqual((await readAgain as any[]).map((i) => i.Title), ['a', 'B', 'c']);
    await del;
    assert.deepEqual(((await sp.web.lists.getByTitle('PnP Batch').items.select('Title')()) as any[]).map((i) => i.Title), ['B', 'c']);
  });

  it('a failing request in the middle rejects its own promise; the others resolve', async () => {
    const [batchedSP, execute] = sp.batched();
    const first = batchedSP.web.select('Title')();
    const missing = batchedSP.web.lists.getByTitle('No Such List')();
    const last = batchedSP.web.lists.getByTitle('Tasks').select('Title')();
    const settled = Promise.allSettled([first, missing, last]);
    await execute();
    const [a, b, c] = await settled;
    assert.equal(a.status, 'fulfilled');
    assert.equal((a as PromiseFulfilledResult<any>).value.Title, 'Dev');
    assert.equal(b.status, 'rejected');
    const err = (b as PromiseRejectedResult).reason as { status: number; isHttpRequestError: boolean };
    assert.equal(err.isHttpRequestError, true);
    assert.equal(err.status, 404);
    assert.equal(c.status, 'fulfilled');
  });

  it('25 requests go in several batches (PnPjs sends at most 20 per batch), in order', async () => {
    const realFetch = globalThis.fetch;
    let batches = 0;
    globalThis.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/_api/$batch')) batches++;
      return realFetch(input, init);
    };
    try {
      await sp.web.lists.add('PnP Many', '', 100);
      const [batchedSP, execute] = sp.batched();
      const list = batchedSP.web.lists.getByTitle('PnP Many');
      const added = Array.from({ length: 25 }, (_, i) => list.items.add({ Title: `item ${i + 1}` }));
      await execute();
      assert.deepEqual((await Promise.all(added)).map((r: any) => r.Id), Array.from({ length: 25 }, (_, i) => i + 1));
      assert.equal(batches, 2);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('web.batched()', async () => {
    const [batchedWeb, execute] = sp.web.batched();
    const web = batchedWeb.select('Title')();
    const lists = batchedWeb.lists.filter("Title eq 'Tasks'").select('Title')();
    await execute();
    assert.equal(((await web) as any).Title, 'Dev');
    assert.deepEqual(((await lists) as any[]).map((l) => l.Title), ['Tasks']);
  });
});
