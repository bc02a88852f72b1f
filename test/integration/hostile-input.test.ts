// Hostile input: malformed paths, query options and bodies, wrong value types for every
// field kind, oversized bodies. The server must never crash, never answer with anything but
// SharePoint's JSON error envelope (no stack traces, no framework bodies), and never write
// part of a refused request: after every failed write the list is exactly as it was.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { useTestServer, DEMO_TENANT } from '../helpers/server.ts';
import { kindsTenant } from '../helpers/fixtures.ts';

const VERBOSE = 'application/json;odata=verbose';
const MINIMAL = 'application/json';
const NOMETADATA = 'application/json;odata=nometadata';
const V4 = 'application/json;odata.metadata=minimal';

interface Res { status: number; headers: http.IncomingHttpHeaders; text: string; json: any }

/** A raw HTTP/1.1 request: the path goes on the wire exactly as given (no URL normalisation). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer | Buffer[]): Promise<Res> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ agent: false, host: u.hostname, port: u.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: any;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (Array.isArray(body)) for (const b of body) req.write(b);
    else if (body !== undefined) req.write(body);
    req.end();
  });
}

const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+|\.js:\d+|\bat [A-Za-z.<>]+ \(|FST_|statusCode/;

/** An error answered in SharePoint's envelope for the dialect the Accept header names. */
function assertSharePointError(res: Res, accept: string, v4 = false): void {
  assert.ok(res.status >= 400 && res.status < 500 || res.status === 500 && res.json?.error?.code?.includes?.('SPQueryThrottled'),
    `expected a client error, got ${res.status}: ${res.text.slice(0, 300)}`);
  assert.doesNotMatch(res.text, STACK_TRACE);
  assert.ok(res.json, `JSON body expected, got: ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers.sprequestguid ?? ''), /^[0-9a-f-]{36}$/);
  if (v4) {
    assert.deepEqual(Object.keys(res.json), ['error']);
    assert.equal(typeof res.json.error.code, 'string');
    assert.equal(typeof res.json.error.message, 'string');
    assert.ok(String(res.headers['content-type']).startsWith('application/json;odata.metadata=minimal'));
    return;
  }
  const key = accept === VERBOSE ? 'error' : 'odata.error';
  assert.deepEqual(Object.keys(res.json), [key], res.text.slice(0, 300));
  assert.deepEqual(Object.keys(res.json[key]), ['code', 'message']);
  assert.match(res.json[key].code, /^-?\d+, [A-Za-z.]+$/);
  assert.deepEqual(Object.keys(res.json[key].message), ['lang', 'value']);
  assert.equal(res.json[key].message.lang, 'en-US');
  assert.equal(typeof res.json[key].message.value, 'string');
  assert.ok(String(res.headers['content-type']).startsWith(accept === VERBOSE ? VERBOSE : 'application/json;odata='));
}

const errorCode = (res: Res) => (res.json?.error ?? res.json?.['odata.error'])?.code as string | undefined;

function hostileKindsTenant() {
  return kindsTenant({
    body: 'Body text',
    moreItems: [
      { Title: "x' or 1=1 --" },
      { Title: "Robert'); DROP TABLE lists; --" },
      { Title: '100% sure' },
      { Title: 'under_score' },
      { Title: 'plain' },
    ],
  });
}

/**
 * ItemCount and every item of a list with its etag (the version every write bumps), in a form
 * that only changes when the data does: the per-response `odata.id` GUIDs are left out.
 */
async function snapshot(site: string, title: string): Promise<string> {
  const api = `${new URL(site).pathname}/_api/web/lists/getbytitle('${title}')`;
  const list = await raw(site, 'GET', `${api}?$select=ItemCount`, { Accept: NOMETADATA });
  const items = await raw(site, 'GET', `${api}/items?$top=5000&$select=*,owshiddenversion`, { Accept: MINIMAL });
  assert.equal(list.status, 200, list.text);
  assert.equal(items.status, 200, items.text);
  const rows = items.json.value.map(({ 'odata.id': _, ...rest }: Record<string, unknown>) => rest);
  assert.ok(rows.every((r: Record<string, unknown>) => typeof r['odata.etag'] === 'string' && typeof r.owshiddenversion === 'number'));
  return JSON.stringify({ count: list.json.ItemCount, items: rows });
}

describe('hostile paths', () => {
  const spemu = useTestServer();
  let site: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
  });

  const big = 'a'.repeat(100_000);
  const PATHS: Array<[string, string, number | undefined]> = [
    ['unbalanced parenthesis (missing close)', "/sites/dev/_api/web/lists/getbytitle('Tasks'/items", 400],
    ['unbalanced parenthesis (extra open)', "/sites/dev/_api/web/lists/getbytitle(('Tasks')/items", 400],
    ['unbalanced parenthesis (extra close)', "/sites/dev/_api/web/lists/getbytitle('Tasks'))/items", 400],
    ['unterminated key', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1", 400],
    ['unterminated string', "/sites/dev/_api/web/lists/getbytitle('Tasks)/items", 400],
    ['stray quote', "/sites/dev/_api/web/lists/getbytitle('Ta'sks')/items", 400],
    ['bad percent escape', '/sites/dev/_api/web/%zz', 400],
    ['bad percent escape after a key', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)%zz", 400],
    ['truncated percent escape', "/sites/dev/_api/web/lists/getbytitle('Tasks%2')", 400],
    ['invalid UTF-8 in an escape', "/sites/dev/_api/web/lists/getbytitle('%E0%A4%A')", 400],
    ['overlong UTF-8 escape', "/sites/dev/_api/web/lists/getbytitle('%C0%AF')", 400],
    ['percent-encoded NUL', "/sites/dev/_api/web/lists/getbytitle('%00')", 404],
    ['bad guid literal', "/sites/dev/_api/web/lists(guid'not-a-guid')", 400],
    ['key that is not a number', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items('abc')", 404],
    ['negative key', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(-1)", 404],
    ['huge key', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(99999999999999999999999)", 404],
    ['fractional key', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1.5)", 404],
    ['empty segments', '/sites/dev/_api/web//lists', 400],
    ['100 KB segment', `/sites/dev/_api/web/${big}`, 404],
    ['100 KB list title', `/sites/dev/_api/web/lists/getbytitle('${big}')/items`, 404],
    ['100 KB of nested parentheses', `/sites/dev/_api/web/lists/getbytitle${'('.repeat(50_000)}${')'.repeat(50_000)}`, 400],
    ['dot-dot climbing out of the API', '/sites/dev/_api/web/../../../../etc/passwd', 404],
    ['encoded dot-dot', '/sites/dev/_api/web/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd', 404],
    ['dot-dot inside a key', "/sites/dev/_api/web/lists/getbytitle('..%2F..%2F..%2Fetc%2Fpasswd')/items", 404],
    ['backslashes', '/sites/dev/_api/web\\..\\..\\lists', undefined],
    ['unknown site', '/sites/nope/_api/web', 404],
    ['alias that is not given', "/sites/dev/_api/web/lists/getbytitle(@v)/items", 400],
    ['alias with a bad literal', "/sites/dev/_api/web/lists/getbytitle(@v)/items?@v=%27unterminated", 400],
  ];

  for (const [name, path, status] of PATHS) {
    it(`${name} → ${status ?? '4xx'} in SharePoint's envelope`, async () => {
      for (const accept of [VERBOSE, MINIMAL]) {
        const res = await raw(spemu.server.url, 'GET', path, { Accept: accept });
        if (status !== undefined) assert.equal(res.status, status, `${accept}: ${res.text.slice(0, 300)}`);
        assertSharePointError(res, accept);
      }
      const v4 = await raw(spemu.server.url, 'GET', path, { Accept: V4, 'OData-Version': '4.0' });
      assertSharePointError(v4, V4, true);
    });
  }

  it('HTTP methods SharePoint does not serve get a SharePoint error, not a framework body', async () => {
    for (const method of ['OPTIONS', 'PROPFIND', 'COPY', 'SEARCH', 'TRACE']) {
      const res = await raw(spemu.server.url, method, "/sites/dev/_api/web/lists/getbytitle('Tasks')", { Accept: VERBOSE });
      assertSharePointError(res, VERBOSE);
      assert.equal(res.status, 405, `${method}: ${res.text}`);
    }
    const tunnelled = await raw(spemu.server.url, 'POST', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)", { Accept: VERBOSE, 'X-HTTP-Method': 'EXPLODE' });
    assert.equal(tunnelled.status, 405);
    assertSharePointError(tunnelled, VERBOSE);
  });

  it('a request line HTTP cannot parse gets a SharePoint error envelope', async () => {
    const u = new URL(spemu.server.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname);
      let out = '';
      socket.on('data', (d) => { out += d.toString('utf8'); });
      socket.on('close', () => resolve(out));
      socket.on('error', reject);
      socket.write('BREW /sites/dev/_api/web HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    const [head, body = ''] = text.split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 400 /);
    assert.doesNotMatch(body, STACK_TRACE);
    const json = JSON.parse(body);
    assert.deepEqual(Object.keys(json), ['odata.error']);
    assert.deepEqual(Object.keys(json['odata.error']), ['code', 'message']);
    assert.equal(json['odata.error'].message.lang, 'en-US');
  });

  it('the server still answers a normal request', async () => {
    const res = await raw(spemu.server.url, 'GET', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Title", { Accept: NOMETADATA });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { Title: 'Write spec' });
  });
});

describe('hostile query options', () => {
  const spemu = useTestServer(() => ({ seed: hostileKindsTenant() }));
  let site: string;
  let base: string;
  let before_: string;
  before(async () => {
    site = spemu.server.site('/sites/test');
    base = "/sites/test/_api/web/lists/getbytitle('Kinds')/items";
    before_ = await snapshot(site, 'Kinds');
  });

  const q = (text: string) => encodeURIComponent(text);
  const get = (query: string) => raw(spemu.server.url, 'GET', `${base}?$select=Title&${query}`, { Accept: NOMETADATA });
  const titles = async (query: string): Promise<string[]> => {
    const res = await get(query);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    return res.json.value.map((x: { Title: string }) => x.Title);
  };

  it('SQL-injection-looking literals match literally', async () => {
    assert.deepEqual(await titles(`$filter=${q("Title eq 'x'' or 1=1 --'")}`), ["x' or 1=1 --"]);
    assert.deepEqual(await titles(`$filter=${q("Title eq 'Robert''); DROP TABLE lists; --'")}`), ["Robert'); DROP TABLE lists; --"]);
    assert.equal((await get(`$filter=${q("Title eq 'x' or 1 eq 1")}`)).status, 400, 'a literal-only comparison is not a condition');
    assert.deepEqual(await titles(`$filter=${q("substringof('%',Title)")}`), ['100% sure']);
    assert.deepEqual(await titles(`$filter=${q("startswith(Title,'_')")}`), []);
    assert.deepEqual(await titles(`$filter=${q("substringof('_',Title)")}`), ['under_score']);
    assert.deepEqual(await titles(`$filter=${q("substringof('''',Title)")}`), ["x' or 1=1 --", "Robert'); DROP TABLE lists; --"]);
    assert.equal((await get(`$filter=${q("Title eq '\\' or '1'='1'")}`)).status, 400, 'backslash does not escape a quote');
    assert.deepEqual(await titles(`$filter=${q("Title eq 'pl\u0000ain'")}`), []);
    assert.deepEqual(await titles(`$filter=${q("Title eq 'ÄÖ🙂'")}`), []);
    // The lists table and the list itself survived.
    assert.equal(await snapshot(site, 'Kinds'), before_);
    const lists = await raw(spemu.server.url, 'GET', '/sites/test/_api/web/lists?$select=Title', { Accept: NOMETADATA });
    assert.equal(lists.status, 200);
    assert.ok(lists.json.value.some((l: { Title: string }) => l.Title === 'Kinds'));
  });

  it('5000 `or`s are answered (200) with the right rows', async () => {
    const parts = Array.from({ length: 5000 }, (_, i) => `Title eq 'nope ${i}'`);
    parts[4321] = "Title eq 'plain'";
    assert.deepEqual(await titles(`$filter=${q(parts.join(' or '))}`), ['plain']);
  });

  it('5000 `and`s are answered (200)', async () => {
    const parts = Array.from({ length: 5000 }, () => "Title ne 'nope'");
    parts.push("Title eq 'plain'");
    assert.deepEqual(await titles(`$filter=${q(parts.join(' and '))}`), ['plain']);
  });

  const REFUSED: Array<[string, string]> = [
    ['10000 nested parentheses', `$filter=${q(`${'('.repeat(10_000)}Title eq 'a'${')'.repeat(10_000)}`)}`],
    ['5000 nested nots', `$filter=${q(`${'not '.repeat(5000)}(Title eq 'a')`)}`],
    ['5000 nested calls', `$filter=${q(`${'startswith('.repeat(5000)}Title${",'a')".repeat(5000)}`)}`],
    ['unbalanced parentheses', `$filter=${q("((Title eq 'a')")}`],
    ['unknown function', `$filter=${q("endswith(Title,'a')")}`],
    ['unknown function (tolower)', `$filter=${q("tolower(Title) eq 'a'")}`],
    ['made-up function', `$filter=${q('explode(Title)')}`],
    ['function with too few arguments', `$filter=${q('startswith(Title)')}`],
    ['function with no arguments', `$filter=${q('substringof()')}`],
    ['date function on text', `$filter=${q('year(Title) eq 2026')}`],
    ['arithmetic', `$filter=${q('Num add 1 eq 4')}`],
    ['comparing two columns', `$filter=${q('Title eq Body')}`],
    ['a number literal out of range', `$filter=${q('Num eq 1e400')}`],
    ['a bad datetime literal', `$filter=${q("When gt datetime'not-a-date'")}`],
    ['a bad guid literal', `$filter=${q("Key eq guid'xyz'")}`],
    ['a string for a number column', `$filter=${q("Num eq 'three'")}`],
    ['a non-queryable column (URL)', `$filter=${q("Link eq 'x'")}`],
    ['a multi-value column', `$filter=${q('WatchersId eq 1')}`],
    ['an unknown column', `$filter=${q("Nope eq 'x'")}`],
    ['a sub-property of a non-lookup', `$filter=${q("Title/Length eq 3")}`],
    ['lookup sub-property without $expand', `$filter=${q("Owner/Title eq 'x'")}`],
    ['an empty $filter', '$filter='],
    ['a control character', `$filter=${q("Title eq 'a'\u0007")}`],
    ['a repeated $filter', `$filter=${q("Title eq 'a'")}&$filter=${q("Title eq 'b'")}`],
    ['$orderby with two directions', `$orderby=${q('Title desc desc')}`],
    ['$orderby with parentheses', `$orderby=${q('(Title)')}`],
    ['$orderby on an unknown column', '$orderby=Nope'],
    ['$select with a semicolon', `$select=${q('Title;DROP TABLE lists')}`],
    ['$select with an empty item', `$select=${q('Title,')}`],
    ['$expand of a plain column', '$expand=Title'],
    ['$expand three levels deep', `$expand=${q('Owner/Owner/Owner')}`],
    ['$top that is not a number', '$top=abc'],
    ['negative $top', '$top=-1'],
    ['$top beyond 32 bits', '$top=99999999999'],
    ['$skiptoken garbage', '$skiptoken=garbage'],
    ['$skiptoken with a non-numeric p_ID', `$skiptoken=${q('Paged=TRUE&p_ID=abc')}`],
    ['a bad escape in the query', '$filter=%zz'],
  ];
  for (const [name, query] of REFUSED) {
    it(`${name} → 4xx`, async () => {
      for (const accept of [VERBOSE, MINIMAL]) {
        const res = await raw(spemu.server.url, 'GET', `${base}?${query}`, { Accept: accept });
        assertSharePointError(res, accept);
        assert.ok(res.status === 400 || res.status === 404, `${res.status}: ${res.text.slice(0, 200)}`);
      }
      const v4 = await raw(spemu.server.url, 'GET', `${base}?${query}`, { Accept: V4, 'OData-Version': '4.0' });
      assertSharePointError(v4, V4, true);
    });
  }

  it('nothing above changed the list, and a normal query still works', async () => {
    assert.equal(await snapshot(site, 'Kinds'), before_);
    assert.deepEqual(await titles(`$filter=${q("Title eq 'Full'")}`), ['Full']);
  });
});

describe('hostile bodies and wrong value types', () => {
  const spemu = useTestServer(() => ({ seed: hostileKindsTenant() }));
  let site: string;
  let items: string;
  let before_: string;
  before(async () => {
    site = spemu.server.site('/sites/test');
    items = "/sites/test/_api/web/lists/getbytitle('Kinds')/items";
    before_ = await snapshot(site, 'Kinds');
  });

  /** Sends `body` as a create and as a MERGE of item 1, in JSON light and verbose; each must fail with 4xx and change nothing. */
  async function refused(body: string, contentType = 'application/json;charset=utf-8', accept = MINIMAL): Promise<Res[]> {
    const out: Res[] = [];
    const targets: Array<[string, Record<string, string>]> = [
      [items, {}],
      [`${items}(1)`, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }],
      [`${items}(1)`, { 'IF-MATCH': '*' }],
    ];
    for (const [i, [path, extra]] of targets.entries()) {
      const method = i === 2 ? 'PATCH' : 'POST';
      const res = await raw(spemu.server.url, method, path, { Accept: accept, 'Content-Type': contentType, ...extra }, body);
      assertSharePointError(res, accept);
      out.push(res);
      assert.equal(await snapshot(site, 'Kinds'), before_, `${method} ${path} with ${body.slice(0, 80)} changed the list`);
    }
    return out;
  }

  it('malformed JSON → 400', async () => {
    for (const body of ['{"Title":', "{'Title':'x'}", '{"Title":"x"}}', '{"Title":"x",}', '{"Title":"x" "Num":1}', '{Title:"x"}',
      '{"Title":"\\x"}', '{"Title":"x"', 'nul', '{"Title":NaN}', '{"Title":undefined}', '\u0000', '<Title>x</Title>']) {
      for (const res of await refused(body)) assert.equal(res.status, 400, `${body}: ${res.text}`);
    }
  });

  it('invalid UTF-8 and deeply nested JSON → 400', async () => {
    for (const res of await refused(Buffer.from([0x7b, 0x22, 0x54, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'))) {
      assert.equal(res.status, 400);
    }
    for (const res of await refused(`{"Title":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)) assert.equal(res.status, 400);
    for (const res of await refused(`${'['.repeat(100_000)}`)) assert.equal(res.status, 400);
  });

  it('arrays, strings, numbers, booleans and null as bodies → 400', async () => {
    for (const body of ['[]', '[{"Title":"x"}]', '"Title"', '42', '-1.5e3', 'true', 'false', 'null', '""']) {
      for (const res of await refused(body)) assert.equal(res.status, 400, `${body}: ${res.text}`);
    }
  });

  it('an empty body → 400 EndOfInput', async () => {
    for (const body of ['', '   ', '\r\n']) {
      for (const res of await refused(body)) {
        assert.equal(res.status, 400);
        assert.match(res.json['odata.error'].message.value, /EndOfInput/);
      }
    }
  });

  it('unknown properties, prototype keys and __metadata in JSON light → 400', async () => {
    for (const body of ['{"Nope":1}', '{"Title":"ok","Nope":1}', '{"__proto__":{"Title":"x"}}', '{"constructor":{"prototype":{}}}',
      '{"toString":"x"}', '{"hasOwnProperty":1}', '{"title":"lower-case name"}', '{"Owner":1}', '{"Watchers":[1]}', '{"OwnerStringId":{}}',
      '{"__metadata":{"type":"SP.Data.KindsListItem"},"Title":"x"}', '{"Title":"ok","":1}']) {
      for (const res of await refused(body)) assert.equal(res.status, 400, `${body}: ${res.text}`);
    }
  });

  it('verbose bodies with a missing, null or wrong __metadata → 400', async () => {
    for (const body of ['{"Title":"x"}', '{"__metadata":null,"Title":"x"}', '{"__metadata":"SP.Data.KindsListItem","Title":"x"}',
      '{"__metadata":{},"Title":"x"}', '{"__metadata":{"type":5},"Title":"x"}', '{"__metadata":{"type":"SP.Data.TasksListItem"},"Title":"x"}',
      '{"__metadata":{"type":"SP.Data.KindsListItem"},"Nope":1}']) {
      for (const res of await refused(body, VERBOSE, VERBOSE)) assert.equal(res.status, 400, `${body}: ${res.text}`);
    }
  });

  // Every field kind with values of the wrong JSON type: SharePoint cannot convert them (400).
  const WRONG_TYPES: Record<string, unknown[]> = {
    Title: [{}, [], { results: ['x'] }],
    Num: ['abc', {}, [], [1], true, '1,5', '0x1G'],
    Cur: ['twelve', {}, [12.5], false],
    Int: [1.5, 'seven', {}, [7], true],
    Flag: ['maybe', 2, -1, {}, [], [true], 'yes'],
    When: ['not a date', 12345, '2026-13-45T00:00:00Z', '2026-02-30', {}, [], true, '2026-01-01T25:00:00Z'],
    Pick: [{}, [], ['a'], { results: ['a'] }],
    Tags: ['red', 5, {}, [1, 2], { results: 'red' }, { results: [{}] }, true],
    Link: [5, [], true, { Url: 5 }, { Description: 'no url' }, { Url: 'https://x', Description: 7 }],
    OwnerId: ['olivia', -1, 1.5, {}, [1], true, '1e3'],
    OwnerStringId: ['olivia', {}, [1]],
    WatchersId: [5, '1,2', ['x'], [1.5], [-1], [0], { results: [{}] }, { results: 'x' }, true],
    WatchersStringId: ['x', 5],
    RefId: ['first', {}, [1], -2, 2.5],
    RefMultiId: ['1', 1, [1.5], { results: ['a'] }],
    Key: ['not-a-guid', 5, {}, [], '0f8fad5b-d9cb-469f-a165-70867728950'],
    Body: [{}, [], { results: [] }],
  };
  for (const [field, values] of Object.entries(WRONG_TYPES)) {
    it(`wrong value types for ${field} → 400 in JSON light and verbose, nothing written`, async () => {
      for (const value of values) {
        const light = await refused(JSON.stringify({ [field]: value }));
        for (const res of light) {
          assert.equal(res.status, 400, `${field}=${JSON.stringify(value)}: ${res.text}`);
          assert.equal(errorCode(res), '-1, Microsoft.SharePoint.Client.InvalidClientQueryException');
        }
        // A valid change next to the bad one is not applied either.
        for (const res of await refused(JSON.stringify({ Title: 'should not stick', [field]: value }))) assert.equal(res.status, 400);
        const verbose = await refused(JSON.stringify({ __metadata: { type: 'SP.Data.KindsListItem' }, Title: 'nor this', [field]: value }), VERBOSE, VERBOSE);
        for (const res of verbose) assert.equal(res.status, 400, `${field}=${JSON.stringify(value)} (verbose): ${res.text}`);
      }
    });
  }

  it('values out of range or too long are refused without a write and without an internal error', async () => {
    for (const body of ['{"Title":"' + 'x'.repeat(256) + '"}', '{"When":"1899-12-31T23:59:59Z"}', '{"When":"9999-01-01T00:00:00Z"}',
      '{"Num":1e309}', '{"Int":1e309}']) {
      const targets: Array<[string, Record<string, string>]> = [[items, {}], [`${items}(1)`, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }]];
      for (const [path, extra] of targets) {
        const res = await raw(spemu.server.url, 'POST', path, { Accept: MINIMAL, 'Content-Type': 'application/json', ...extra }, body);
        assert.ok(res.status === 400 || res.status === 500, `${body}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.doesNotMatch(res.text, STACK_TRACE);
        assert.notEqual(errorCode(res), '-1, Microsoft.SharePoint.Client.UnknownError', res.text);
        assert.equal(await snapshot(site, 'Kinds'), before_);
      }
    }
  });

  it('If-Match values that cannot match anything → 412, nothing written', async () => {
    for (const etag of ['"abc"', 'garbage', '""', '"-1"', 'W/"99"', '"99", "98"', '"1" junk']) {
      const res = await raw(spemu.server.url, 'POST', `${items}(1)`, { Accept: MINIMAL, 'Content-Type': 'application/json', 'X-HTTP-Method': 'MERGE', 'IF-MATCH': etag }, '{"Title":"etag"}');
      assert.ok(res.status === 412 || res.status === 400, `${etag}: ${res.status} ${res.text}`);
      assertSharePointError(res, MINIMAL);
      assert.equal(await snapshot(site, 'Kinds'), before_);
    }
  });

  it('unsupported content types → 4xx, nothing written', async () => {
    for (const ct of ['application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded']) {
      const res = await raw(spemu.server.url, 'POST', items, { Accept: VERBOSE, 'Content-Type': ct }, 'Title=x');
      assertSharePointError(res, VERBOSE);
      assert.equal(await snapshot(site, 'Kinds'), before_);
    }
  });

  it('a hundred concurrent hostile writes leave the list untouched and the server responsive', async () => {
    const bodies = ['{"Title":', '[]', '{"Num":"x"}', '{"Nope":1}', '42'];
    const all = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      raw(spemu.server.url, 'POST', i % 2 ? items : `${items}(1)`, { Accept: MINIMAL, 'Content-Type': 'application/json', ...(i % 2 ? {} : { 'X-HTTP-Method': 'MERGE' }) }, bodies[i % bodies.length])));
    for (const res of all) {
      assert.equal(res.status, 400, res.text);
      assertSharePointError(res, MINIMAL);
    }
    assert.equal(await snapshot(site, 'Kinds'), before_);
  });

  it('after the hostile batch a normal write and read work', async () => {
    const created = await raw(spemu.server.url, 'POST', items, { Accept: NOMETADATA, 'Content-Type': 'application/json' }, '{"Title":"normal","Num":2,"Tags":["green"]}');
    assert.equal(created.status, 201, created.text);
    const read = await raw(spemu.server.url, 'GET', `${items}(${created.json.Id})?$select=Title,Num,Tags`, { Accept: NOMETADATA });
    assert.equal(read.text, '{"Title":"normal","Num":2.0,"Tags":["green"]}');
  });
});

describe('bodies larger than the limit', () => {
  const spemu = useTestServer({ seed: DEMO_TENANT, bodyLimit: 1024 });
  let site: string;
  let items: string;
  let before_: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
    items = "/sites/dev/_api/web/lists/getbytitle('Tasks')/items";
    before_ = await snapshot(site, 'Tasks');
  });

  const large = JSON.stringify({ Title: 'x'.repeat(2000) });

  it('413 with SharePoint\'s envelope in every dialect, nothing written', async () => {
    for (const [accept, v4] of [[VERBOSE, false], [MINIMAL, false], [NOMETADATA, false], [V4, true]] as const) {
      const res = await raw(spemu.server.url, 'POST', items, { Accept: accept, 'Content-Type': 'application/json', ...(v4 ? { 'OData-Version': '4.0' } : {}) }, large);
      assert.equal(res.status, 413, res.text);
      assertSharePointError(res, accept, v4);
      assert.equal(await snapshot(site, 'Tasks'), before_);
    }
  });

  it('413 for a chunked body without Content-Length, and for MERGE', async () => {
    const chunks = Array.from({ length: 40 }, () => Buffer.from('x'.repeat(100)));
    const res = await raw(spemu.server.url, 'POST', items, { Accept: MINIMAL, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      [Buffer.from('{"Title":"'), ...chunks, Buffer.from('"}')]);
    assert.equal(res.status, 413, res.text);
    assertSharePointError(res, MINIMAL);
    const merge = await raw(spemu.server.url, 'POST', `${items}(1)`, { Accept: VERBOSE, 'Content-Type': 'application/json', 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }, large);
    assert.equal(merge.status, 413);
    assertSharePointError(merge, VERBOSE);
    assert.equal(await snapshot(site, 'Tasks'), before_);
  });

  it('a body under the limit still works', async () => {
    const res = await raw(spemu.server.url, 'POST', items, { Accept: NOMETADATA, 'Content-Type': 'application/json' }, '{"Title":"small"}');
    assert.equal(res.status, 201, res.text);
  });
});
