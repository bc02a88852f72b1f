// Exact wire shapes, checked with plain `fetch` against the reference's CONFIRMED examples
// (/work/shared/reference/sharepoint-wire-format.md §0.2, §1, §2, §3, §8, §12): every JSON
// dialect for one item with expanded users, collections and paging, value kinds, and writes.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, useTestServer, minimalTenant } from '../helpers/server.ts';
import { kindsTenant } from '../helpers/fixtures.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';

const CONTENT_TYPE = {
  verbose: 'application/json;odata=verbose;charset=utf-8',
  minimal: 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8',
  nometadata: 'application/json;odata=nometadata;streaming=true;charset=utf-8',
  v4minimal: 'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
  v4none: 'application/json;odata.metadata=none;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
  v4full: 'application/json;odata.metadata=full;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
} as const;

interface Res { status: number; headers: Headers; text: string; json: any }

async function call(url: string, init: { accept?: string; v4?: boolean; method?: string; body?: unknown; contentType?: string; headers?: Record<string, string> } = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.accept !== undefined) headers.Accept = init.accept;
  if (init.v4) headers['OData-Version'] = '4.0';
  if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json;charset=utf-8';
  const r = await fetch(url, {
    method: init.method ?? 'GET', headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await r.text();
  let json: any;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: r.status, headers: r.headers, text, json };
}

/** The headers SharePoint puts on every `/_api` response (reference §12). */
function assertStandardHeaders(res: Res, v4: boolean): void {
  const guid = res.headers.get('sprequestguid');
  assert.match(guid ?? '', GUID);
  assert.equal(res.headers.get('request-id'), guid);
  assert.equal(res.headers.get('x-sharepointhealthscore'), '0');
  assert.match(res.headers.get('microsoftsharepointteamservices') ?? '', /^16\.0\.0\.\d+$/);
  if (v4) {
    assert.equal(res.headers.get('odata-version'), '4.0');
    assert.equal(res.headers.get('dataserviceversion'), null);
  } else {
    assert.equal(res.headers.get('dataserviceversion'), '3.0');
    assert.equal(res.headers.get('odata-version'), null);
  }
}

const keys = (o: object) => Object.keys(o);

const ENDPOINT_1 = "/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor";
const ENDPOINT_1_SELECT = 'Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName';

async function listId(site: string, title: string): Promise<string> {
  const r = await call(`${site}/_api/web/lists/getbytitle('${title}')?$select=Id`, { accept: ACCEPT.nometadata });
  assert.equal(r.status, 200);
  assert.match(r.json.Id, GUID);
  return r.json.Id;
}

describe('one item with expanded users, in every dialect (reference §1)', () => {
  const spemu = useTestServer();
  let site: string;
  let tasksId: string;
  let url: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
    tasksId = await listId(site, 'Tasks');
    url = site + ENDPOINT_1;
  });

  it('verbose: {"d":{__metadata{id,uri,etag,type},Author,Editor,Title}}', async () => {
    const r = await call(url, { accept: ACCEPT.verbose });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.verbose);
    assertStandardHeaders(r, false);
    assert.equal(r.headers.get('etag'), '"1"');
    assert.deepEqual(keys(r.json), ['d']);
    const d = r.json.d;
    assert.deepEqual(keys(d), ['__metadata', 'Author', 'Editor', 'Title']);
    assert.deepEqual(keys(d.__metadata), ['id', 'uri', 'etag', 'type']);
    assert.match(d.__metadata.id, GUID);
    assert.equal(d.__metadata.uri, `${site}/_api/Web/Lists(guid'${tasksId}')/Items(1)`);
    assert.equal(d.__metadata.etag, '"1"');
    assert.equal(d.__metadata.type, 'SP.Data.TasksListItem');
    assert.ok(r.text.includes('"etag":"\\"1\\""'), 'etag is written with escaped quotes');
    for (const [name, id, title, last] of [['Author', 1, 'Alice Adams', 'Adams'], ['Editor', 2, 'Bob Baker', 'Baker']] as const) {
      const user = d[name];
      assert.deepEqual(keys(user), ['__metadata', 'ID', 'Title', 'LastName']);
      assert.deepEqual(keys(user.__metadata), ['id', 'type'], 'expanded users carry only id and type');
      assert.match(user.__metadata.id, GUID);
      assert.equal(user.__metadata.type, 'SP.Data.UserInfoItem');
      assert.equal(user.ID, id);
      assert.equal(user.Title, title);
      assert.equal(user.LastName, last);
    }
    assert.equal(d.Title, 'Write spec');
    assert.notEqual(d.Author.__metadata.id, d.Editor.__metadata.id);
  });

  for (const [label, accept] of [['plain application/json', ACCEPT.plain], ['odata=minimalmetadata', ACCEPT.minimal]] as const) {
    it(`${label}: minimal metadata with odata.* annotations`, async () => {
      const r = await call(url, { accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), CONTENT_TYPE.minimal);
      assertStandardHeaders(r, false);
      assert.equal(r.headers.get('etag'), '"1"');
      const j = r.json;
      assert.deepEqual(keys(j), [
        'odata.metadata', 'odata.type', 'odata.id', 'odata.etag', 'odata.editLink',
        'Author@odata.navigationLinkUrl', 'Author', 'Editor@odata.navigationLinkUrl', 'Editor', 'Title',
      ]);
      const metadata = `${site}/_api/$metadata#SP.ListData.TasksListItems/@Element`;
      assert.ok(j['odata.metadata'] === metadata || j['odata.metadata'] === `${metadata}&$select=${ENDPOINT_1_SELECT}`, j['odata.metadata']);
      assert.equal(j['odata.type'], 'SP.Data.TasksListItem');
      assert.match(j['odata.id'], GUID);
      assert.equal(j['odata.etag'], '"1"');
      assert.ok(r.text.includes('"odata.etag":"\\"1\\""'), 'raw text "odata.etag":"\\"1\\""');
      assert.equal(j['odata.editLink'], `Web/Lists(guid'${tasksId}')/Items(1)`);
      assert.equal(j['Author@odata.navigationLinkUrl'], `Web/Lists(guid'${tasksId}')/Items(1)/Author`);
      assert.equal(j['Editor@odata.navigationLinkUrl'], `Web/Lists(guid'${tasksId}')/Items(1)/Editor`);
      for (const [name, id, title, last] of [['Author', 1, 'Alice Adams', 'Adams'], ['Editor', 2, 'Bob Baker', 'Baker']] as const) {
        assert.deepEqual(keys(j[name]), ['odata.type', 'odata.id', 'ID', 'Title', 'LastName']);
        assert.equal(j[name]['odata.type'], 'SP.Data.UserInfoItem');
        assert.match(j[name]['odata.id'], GUID);
        assert.deepEqual([j[name].ID, j[name].Title, j[name].LastName], [id, title, last]);
      }
      assert.equal(j.Title, 'Write spec');
    });
  }

  it('plain application/json and odata=minimalmetadata are identical (apart from per-response GUIDs)', async () => {
    const strip = (text: string) => text.replace(/"odata\.id":"[0-9a-f-]{36}"/g, '"odata.id":"<guid>"');
    const a = await call(url, { accept: ACCEPT.plain });
    const b = await call(url, { accept: ACCEPT.minimal });
    assert.equal(strip(a.text), strip(b.text));
    assert.equal(a.headers.get('content-type'), b.headers.get('content-type'));
  });

  it('odata=nometadata: no odata.* keys at all', async () => {
    const r = await call(url, { accept: ACCEPT.nometadata });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.nometadata);
    assertStandardHeaders(r, false);
    assert.equal(r.headers.get('etag'), '"1"');
    assert.equal(r.text, '{"Author":{"ID":1,"Title":"Alice Adams","LastName":"Adams"},"Editor":{"ID":2,"Title":"Bob Baker","LastName":"Baker"},"Title":"Write spec"}');
    assert.ok(!r.text.includes('odata'));
  });

  it('OData v4 minimal: @odata.context, @odata.type with #, @odata.navigationLink', async () => {
    const r = await call(url, { accept: ACCEPT.v4minimal, v4: true });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.v4minimal);
    assertStandardHeaders(r, true);
    assert.equal(r.headers.get('etag'), '"1"');
    const j = r.json;
    assert.deepEqual(keys(j), [
      '@odata.context', '@odata.type', '@odata.id', '@odata.etag', '@odata.editLink',
      'Author@odata.navigationLink', 'Author', 'Editor@odata.navigationLink', 'Editor', 'Title',
    ]);
    assert.ok(j['@odata.context'].startsWith(`${site}/_api/$metadata#SP.ListData.TasksListItems`), j['@odata.context']);
    assert.equal(j['@odata.type'], '#SP.Data.TasksListItem');
    assert.match(j['@odata.id'], GUID);
    assert.equal(j['@odata.etag'], '"1"');
    assert.equal(j['@odata.editLink'], `Web/Lists(guid'${tasksId}')/Items(1)`);
    assert.equal(j['Author@odata.navigationLink'], `Web/Lists(guid'${tasksId}')/Items(1)/Author`);
    assert.equal(j['Editor@odata.navigationLink'], `Web/Lists(guid'${tasksId}')/Items(1)/Editor`);
    assert.deepEqual(keys(j.Author), ['@odata.type', '@odata.id', 'ID', 'Title', 'LastName']);
    assert.equal(j.Author['@odata.type'], '#SP.Data.UserInfoItem');
    assert.match(j.Author['@odata.id'], GUID);
    assert.deepEqual([j.Editor.ID, j.Editor.Title, j.Editor.LastName], [2, 'Bob Baker', 'Baker']);
    assert.ok(!r.text.includes('"odata.'), 'no v3 annotations in v4');
  });

  it('OData v4 none: plain objects', async () => {
    const r = await call(url, { accept: ACCEPT.v4none, v4: true });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.v4none);
    assertStandardHeaders(r, true);
    assert.equal(r.text, '{"Author":{"ID":1,"Title":"Alice Adams","LastName":"Adams"},"Editor":{"ID":2,"Title":"Bob Baker","LastName":"Baker"},"Title":"Write spec"}');
  });

  it('OData v4 full: at least the minimal annotations', async () => {
    const r = await call(url, { accept: ACCEPT.v4full, v4: true });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.v4full);
    assertStandardHeaders(r, true);
    for (const k of ['@odata.context', '@odata.type', '@odata.id', '@odata.etag', '@odata.editLink', 'Author@odata.navigationLink', 'Editor@odata.navigationLink']) {
      assert.ok(k in r.json, k);
    }
    assert.equal(r.json['@odata.type'], '#SP.Data.TasksListItem');
    assert.equal(r.json.Author['@odata.type'], '#SP.Data.UserInfoItem');
  });

  it('OData v4 with the v3 odata=nometadata directive → 406 in the v4 error envelope', async () => {
    const r = await call(url, { accept: ACCEPT.nometadata, v4: true });
    assert.equal(r.status, 406);
    assertStandardHeaders(r, true);
    assert.deepEqual(keys(r.json), ['error']);
    assert.deepEqual(keys(r.json.error), ['code', 'message']);
    assert.equal(typeof r.json.error.message, 'string');
    assert.equal(r.json.error.message, 'The HTTP header ACCEPT is missing or its value is invalid.');
  });

  it('Accept is matched case-insensitively and the first acceptable range wins', async () => {
    const r = await call(url, { accept: 'text/html, application/json; OData=Verbose' });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.verbose);
    assert.ok('d' in r.json);
  });

  it('`odata-version: ""` (SPFx opt-out) and `3.0` mean OData v3', async () => {
    for (const v of ['', '3.0']) {
      const r = await call(url, { accept: ACCEPT.plain, headers: { 'OData-Version': v } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), CONTENT_TYPE.minimal);
      assert.ok('odata.metadata' in r.json);
    }
  });
});

describe('collections and server-driven paging (reference §2)', () => {
  const spemu = useTestServer(() => {
    const items = Array.from({ length: 250 }, (_, i) => ({ Title: `Item ${i + 1}`, Rank: i % 7 }));
    return { seed: minimalTenant({ lists: [{ title: 'Many', url: 'Lists/Many', fields: [{ name: 'Rank', type: 'Integer' }], items }] }) };
  });
  let site: string;
  before(() => { site = spemu.server.site('/sites/test'); });

  const tasksServer = () => startTestServer();

  it('verbose: d.results + d.__next, absolute, original path casing, skiptoken first, lower-case hex', async () => {
    const s = await tasksServer();
    try {
      const dev = s.site('/sites/dev');
      const path = "/_api/Web/Lists/GetByTitle('Tasks')/Items";
      const r = await call(`${dev}${path}?$select=Title,Priority&$top=3`, { accept: ACCEPT.verbose });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), CONTENT_TYPE.verbose);
      assertStandardHeaders(r, false);
      assert.equal(r.headers.get('etag'), null, 'collections carry no ETag');
      assert.deepEqual(keys(r.json), ['d']);
      assert.deepEqual(keys(r.json.d), ['results', '__next']);
      assert.deepEqual(r.json.d.results.map((x: any) => x.Title), ['Write spec', 'Set up CI pipeline', 'Design database schema']);
      for (const item of r.json.d.results) {
        assert.deepEqual(keys(item), ['__metadata', 'Title', 'Priority']);
        assert.deepEqual(keys(item.__metadata), ['id', 'uri', 'etag', 'type']);
      }
      assert.equal(r.json.d.__next, `${dev}${path}?%24skiptoken=Paged%3dTRUE%26p_ID%3d3&%24select=Title%2cPriority&%24top=3`);

      const page2 = await call(r.json.d.__next, { accept: ACCEPT.verbose });
      assert.equal(page2.status, 200);
      assert.deepEqual(page2.json.d.results.map((x: any) => x.Title), ['Implement OData filter parser', 'Customer portal sign-in page', 'Migrate legacy records']);
      assert.equal(page2.json.d.__next, `${dev}${path}?%24skiptoken=Paged%3dTRUE%26p_ID%3d6&%24select=Title%2cPriority&%24top=3`);
      const page3 = await call(page2.json.d.__next, { accept: ACCEPT.verbose });
      assert.deepEqual(page3.json.d.results.map((x: any) => x.Title), ['Write user documentation', 'Review security checklist']);
      assert.deepEqual(keys(page3.json.d), ['results'], 'the last page has no __next');
    } finally {
      await s.close();
    }
  });

  it('minimal: odata.metadata + value + odata.nextLink; following it returns the next page', async () => {
    const r = await call(`${site}/_api/web/lists/getbytitle('Many')/items?$select=Title&$top=2&$filter=Rank eq 3`, { accept: ACCEPT.plain });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.minimal);
    assert.deepEqual(keys(r.json), ['odata.metadata', 'value', 'odata.nextLink']);
    assert.ok(r.json['odata.metadata'].startsWith(`${site}/_api/$metadata#SP.ListData.ManyListItems`));
    assert.deepEqual(r.json.value.map((x: any) => x.Title), ['Item 4', 'Item 11']);
    for (const item of r.json.value) assert.deepEqual(keys(item), ['odata.type', 'odata.id', 'odata.etag', 'odata.editLink', 'Title']);
    assert.equal(r.json['odata.nextLink'],
      `${site}/_api/web/lists/getbytitle('Many')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d11&%24select=Title&%24top=2&%24filter=Rank+eq+3`);
    const next = await call(r.json['odata.nextLink'], { accept: ACCEPT.plain });
    assert.equal(next.status, 200);
    assert.deepEqual(next.json.value.map((x: any) => x.Title), ['Item 18', 'Item 25']);
    assert.ok(next.json['odata.nextLink'].includes('%24skiptoken=Paged%3dTRUE%26p_ID%3d25&'));
  });

  it('nometadata: value, and odata.nextLink for paging clients', async () => {
    const r = await call(`${site}/_api/web/lists/getbytitle('Many')/items?$select=Title&$top=2`, { accept: ACCEPT.nometadata });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.nometadata);
    assert.deepEqual(keys(r.json), ['value', 'odata.nextLink']);
    assert.deepEqual(r.json.value, [{ Title: 'Item 1' }, { Title: 'Item 2' }]);
    assert.equal(r.json['odata.nextLink'], `${site}/_api/web/lists/getbytitle('Many')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d2&%24select=Title&%24top=2`);
  });

  it('OData v4: @odata.context + value + @odata.nextLink', async () => {
    for (const accept of [ACCEPT.v4minimal, ACCEPT.v4none]) {
      const r = await call(`${site}/_api/web/lists/getbytitle('Many')/items?$select=Title&$top=2`, { accept, v4: true });
      assert.equal(r.status, 200);
      assertStandardHeaders(r, true);
      const expected = accept === ACCEPT.v4minimal ? ['@odata.context', 'value', '@odata.nextLink'] : ['value', '@odata.nextLink'];
      assert.deepEqual(keys(r.json), expected);
      if (accept === ACCEPT.v4minimal) {
        assert.ok(r.json['@odata.context'].startsWith(`${site}/_api/$metadata#SP.ListData.ManyListItems`));
        assert.equal(r.json.value[0]['@odata.type'], '#SP.Data.ManyListItem');
      }
      assert.equal(r.json['@odata.nextLink'], `${site}/_api/web/lists/getbytitle('Many')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d2&%24select=Title&%24top=2`);
      const next = await call(r.json['@odata.nextLink'], { accept, v4: true });
      assert.deepEqual(next.json.value.map((x: any) => x.Title), ['Item 3', 'Item 4']);
    }
  });

  it('the default page is 100 items; walking every next link visits each item once', async () => {
    const r = await call(`${site}/_api/web/lists/getbytitle('Many')/items?$select=Id`, { accept: ACCEPT.verbose });
    assert.equal(r.status, 200);
    assert.equal(r.json.d.results.length, 100);
    assert.equal(r.json.d.__next, `${site}/_api/web/lists/getbytitle('Many')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d100&%24select=Id`);
    const seen: number[] = r.json.d.results.map((x: any) => x.Id);
    let next: string | undefined = r.json.d.__next;
    let pages = 1;
    while (next) {
      const page = await call(next, { accept: ACCEPT.verbose });
      assert.equal(page.status, 200);
      seen.push(...page.json.d.results.map((x: any) => x.Id));
      next = page.json.d.__next;
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, Array.from({ length: 250 }, (_, i) => i + 1));
  });

  it('skiptokens as clients write them: unencoded `&`, parameter aliases, PagedPrev', async () => {
    const many = `${site}/_api/web/lists/getbytitle('Many')/items`;
    // CLI-style: the token's inner `&` unencoded; the next link carries one, encoded, token.
    const raw = await call(`${many}?$select=Id&$top=2&$skiptoken=Paged=TRUE&p_ID=2`, { accept: ACCEPT.nometadata });
    assert.equal(raw.status, 200);
    assert.deepEqual(raw.json.value, [{ Id: 3 }, { Id: 4 }]);
    assert.equal(raw.json['odata.nextLink'], `${many}?%24skiptoken=Paged%3dTRUE%26p_ID%3d4&%24select=Id&%24top=2`);
    // An alias in the path is kept in the next link, and following it still resolves.
    const aliased = await call(`${site}/_api/web/lists/getbytitle(@v)/items?@v='Many'&$select=Id&$top=2`, { accept: ACCEPT.nometadata });
    assert.equal(aliased.status, 200);
    const next = aliased.json['odata.nextLink'] as string;
    assert.ok(next.startsWith(`${site}/_api/web/lists/getbytitle(@v)/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d2&`), next);
    assert.deepEqual((await call(next, { accept: ACCEPT.nometadata })).json.value, [{ Id: 3 }, { Id: 4 }]);
    // Reverse paging: the page before p_ID=5.
    const prev = await call(`${many}?$select=Id&$top=2&$skiptoken=${encodeURIComponent('Paged=TRUE&PagedPrev=TRUE&p_ID=5')}`, { accept: ACCEPT.nometadata });
    assert.equal(prev.status, 200);
    assert.deepEqual(prev.json.value, [{ Id: 3 }, { Id: 4 }]);
  });

  it('a next link with $orderby keeps the order and carries the sort value', async () => {
    const r = await call(`${site}/_api/web/lists/getbytitle('Many')/items?$select=Id,Rank&$orderby=Rank desc&$top=40`, { accept: ACCEPT.nometadata });
    assert.equal(r.status, 200);
    const all: Array<{ Id: number; Rank: number }> = [...r.json.value];
    let next: string | undefined = r.json['odata.nextLink'];
    assert.ok(next?.startsWith(`${site}/_api/web/lists/getbytitle('Many')/items?%24skiptoken=Paged%3dTRUE%26p_Rank%3d`), next);
    while (next) {
      const page = await call(next, { accept: ACCEPT.nometadata });
      assert.equal(page.status, 200);
      all.push(...page.json.value);
      next = page.json['odata.nextLink'];
    }
    assert.equal(all.length, 250);
    const expected = Array.from({ length: 250 }, (_, i) => ({ Id: i + 1, Rank: i % 7 }))
      .sort((a, b) => b.Rank - a.Rank || a.Id - b.Id);
    assert.deepEqual(all, expected);
  });
});

describe('SP.List entity (reference §8.4)', () => {
  const spemu = useTestServer();
  let site: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
  });

  it('verbose __metadata {id,uri,etag,type} with the absolute canonical URL, and a matching ETag header', async () => {
    const id = await listId(site, 'Tasks');
    const r = await call(`${site}/_api/web/lists/getbytitle('Tasks')?$select=Title,EntityTypeName,ListItemEntityTypeFullName,ItemCount`, { accept: ACCEPT.verbose });
    assert.equal(r.status, 200);
    const m = r.json.d.__metadata;
    assert.deepEqual(keys(m), ['id', 'uri', 'etag', 'type']);
    assert.equal(m.id, `${site}/_api/Web/Lists(guid'${id}')`);
    assert.equal(m.uri, m.id);
    assert.equal(m.type, 'SP.List');
    assert.match(m.etag, /^"\d+"$/);
    assert.equal(r.headers.get('etag'), m.etag);
    assert.equal(r.json.d.EntityTypeName, 'TasksList');
    assert.equal(r.json.d.ListItemEntityTypeFullName, 'SP.Data.TasksListItem');
    assert.equal(r.json.d.ItemCount, 8);
    const light = await call(`${site}/_api/web/lists/getbytitle('Tasks')?$select=Title`, { accept: ACCEPT.plain });
    assert.equal(light.json['odata.type'], 'SP.List');
    assert.equal(light.json['odata.id'], `${site}/_api/Web/Lists(guid'${id}')`);
    assert.equal(light.json['odata.editLink'], `Web/Lists(guid'${id}')`);
    assert.ok(light.json['odata.metadata'].startsWith(`${site}/_api/$metadata#SP.ApiData.Lists/@Element`));
  });
});

describe('$top above 5000 is capped at 5000', () => {
  const spemu = useTestServer(() => {
    const items = Array.from({ length: 5003 }, (_, i) => ({ Title: `Row ${i + 1}` }));
    return { seed: minimalTenant({ lists: [{ title: 'Big', url: 'Lists/Big', items }] }) };
  });
  let site: string;
  before(() => { site = spemu.server.site('/sites/test'); });

  it('$top=6000 returns 5000 items and a next link', async () => {
    const r = await call(`${site}/_api/web/lists/getbytitle('Big')/items?$select=Id&$top=6000`, { accept: ACCEPT.nometadata });
    assert.equal(r.status, 200);
    assert.equal(r.json.value.length, 5000);
    assert.equal(r.json.value[4999].Id, 5000);
    assert.equal(r.json['odata.nextLink'], `${site}/_api/web/lists/getbytitle('Big')/items?%24skiptoken=Paged%3dTRUE%26p_ID%3d5000&%24select=Id&%24top=6000`);
    const next = await call(r.json['odata.nextLink'], { accept: ACCEPT.nometadata });
    assert.deepEqual(next.json.value.map((x: any) => x.Id), [5001, 5002, 5003]);
    assert.ok(!('odata.nextLink' in next.json));
  });
});

describe('value kinds on the wire (reference §1.2, §3, §8.1, §8.6)', () => {
  const spemu = useTestServer(() => ({ seed: kindsTenant({ body: 'Line one\nLine "two"', moreItems: [{ Title: 'Empty' }] }) }));
  let site: string;
  before(async () => {
    site = spemu.server.site('/sites/test');
  });

  const item = (id: number, accept: string, v4 = false) => call(`${site}/_api/web/lists/getbytitle('Kinds')/items(${id})`, { accept, v4 });

  it('verbose raw text: doubles with a fraction, ISO dates, SP.FieldUrlValue, Collection(Edm.String), {"results":[…]} ids', async () => {
    const r = await item(1, ACCEPT.verbose);
    assert.equal(r.status, 200);
    const t = r.text;
    assert.ok(t.includes('"Num":3.0,'), 'Number 3 → 3.0');
    assert.ok(t.includes('"Cur":12.5,'));
    assert.ok(t.includes('"Int":7,'), 'Integer stays an integer');
    assert.ok(t.includes('"Flag":true,'));
    assert.ok(t.includes('"When":"2026-03-04T05:06:07Z"'));
    assert.ok(t.includes('"Pick":"b"'));
    assert.ok(t.includes('"Tags":{"__metadata":{"type":"Collection(Edm.String)"},"results":["red","blue"]}'));
    assert.ok(t.includes('"Link":{"__metadata":{"type":"SP.FieldUrlValue"},"Description":"X site","Url":"https://contoso.com/x"}'));
    assert.ok(t.includes('"OwnerId":1,"OwnerStringId":"1"'));
    assert.ok(t.includes('"WatchersId":{"results":[1,2]}'));
    assert.ok(t.includes('"RefId":2,'));
    assert.ok(t.includes('"RefMultiId":{"results":[1,2]}'));
    assert.ok(t.includes('"Key":"0f8fad5b-d9cb-469f-a165-70867728950e"'));
    assert.ok(t.includes('"Body":"Line one\\nLine \\"two\\""'));
    const d = r.json.d;
    assert.match(d.Created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.match(d.Modified, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(d.ID, 1);
    assert.equal(d.Id, 1);
    assert.equal(d.OData__UIVersionString, '1.0');
    assert.equal(d.Attachments, false);
    assert.match(d.GUID, GUID);
    assert.equal(d.ContentType.__deferred.uri, `${d.__metadata.uri}/ContentType`, 'full projections carry __deferred stubs');
  });

  it('a full item (no $select): SharePoint Online\'s property order (CAP-BATCH)', async () => {
    const r = await item(1, ACCEPT.plain);
    assert.deepEqual(keys(r.json), [
      'odata.metadata', 'odata.type', 'odata.id', 'odata.etag', 'odata.editLink',
      'FileSystemObjectType', 'Id', 'ServerRedirectedEmbedUri', 'ServerRedirectedEmbedUrl', 'ContentTypeId', 'Title', 'ComplianceAssetId',
      'Num', 'Cur', 'Int', 'Flag', 'When', 'Pick', 'Tags', 'Link', 'OwnerId', 'OwnerStringId', 'WatchersId', 'WatchersStringId',
      'RefId', 'RefMultiId', 'Key', 'Body',
      'ID', 'Modified', 'Created', 'AuthorId', 'EditorId', 'OData__UIVersionString', 'Attachments', 'GUID',
    ]);
    assert.equal(r.json['odata.metadata'], `${site}/_api/$metadata#SP.ListData.KindsListItems/@Element`);
    assert.equal(r.json['odata.type'], 'SP.Data.KindsListItem');
    assert.deepEqual([r.json.FileSystemObjectType, r.json.Id, r.json.ID], [0, 1, 1]);
    assert.deepEqual([r.json.ServerRedirectedEmbedUri, r.json.ServerRedirectedEmbedUrl, r.json.ComplianceAssetId], [null, '', null]);
    assert.equal(r.json.OwnerStringId, '1');
    assert.deepEqual(r.json.WatchersStringId, ['1', '2']);
    // Item (0x01) + 00 + 32 hex digits, as CAP-BATCH's 0x0100EFABA43AC7208144A715E899CA25CAE5.
    assert.match(r.json.ContentTypeId, /^0x0100[0-9A-F]{32}$/);
  });

  it('minimal raw text: URL values without odata.type, plain arrays', async () => {
    const r = await item(1, ACCEPT.plain);
    assert.equal(r.status, 200);
    const t = r.text;
    assert.ok(t.includes('"Num":3.0,'));
    assert.ok(t.includes('"Tags":["red","blue"]'));
    assert.ok(t.includes('"Link":{"Description":"X site","Url":"https://contoso.com/x"}'));
    assert.ok(t.includes('"WatchersId":[1,2]'));
    assert.ok(t.includes('"RefMultiId":[1,2]'));
    assert.ok(!t.includes('__metadata') && !t.includes('__deferred'));
    for (const accept of [ACCEPT.nometadata]) {
      const n = await item(1, accept);
      assert.ok(n.text.includes('"Num":3.0,'));
      assert.ok(n.text.includes('"Link":{"Description":"X site","Url":"https://contoso.com/x"}'));
    }
    const v4 = await item(1, ACCEPT.v4minimal, true);
    assert.ok(v4.text.includes('"Num":3.0,'));
    assert.ok(v4.text.includes('"Link":{"Description":"X site","Url":"https://contoso.com/x"}'));
  });

  it('empty values: null scalars and URLs, {"results":[]} for empty multi-person ids', async () => {
    const v = await item(2, ACCEPT.verbose);
    for (const k of ['Num', 'Cur', 'Int', 'When', 'Pick', 'Link', 'OwnerId', 'RefId', 'Key', 'Body']) assert.equal(v.json.d[k], null, k);
    assert.ok(v.text.includes('"WatchersId":{"results":[]}'));
    const m = await item(2, ACCEPT.plain);
    assert.equal(m.json.Link, null);
    assert.deepEqual(m.json.WatchersId, []);
  });

  it('the demo tenant: Priority 3 → 3.0, Budget 120000 → 120000.0, Website URL value, null Picture → null', async () => {
    const s = await startTestServer();
    try {
      const dev = s.site('/sites/dev');
      const t7 = await call(`${dev}/_api/web/lists/getbytitle('Tasks')/items(7)?$select=Priority,Due`, { accept: ACCEPT.verbose });
      assert.ok(t7.text.includes('"Priority":3.0'));
      assert.ok(t7.text.includes('"Due":"2026-03-13T17:00:00Z"'));
      const p1 = await call(`${dev}/_api/web/lists/getbytitle('Projects')/items(1)?$select=Budget,Website`, { accept: ACCEPT.verbose });
      assert.ok(p1.text.includes('"Budget":120000.0'));
      assert.deepEqual(p1.json.d.Website, { __metadata: { type: 'SP.FieldUrlValue' }, Description: 'Project page', Url: 'https://contoso.com/projects/spemu' });
      const p3 = await call(`${dev}/_api/web/lists/getbytitle('Projects')/items(3)?$select=Budget,Website`, { accept: ACCEPT.plain });
      assert.ok(p3.text.includes('"Budget":42500.5'));
      assert.equal(p3.json.Website, null);
      // The User Information List: Dave has no picture, Alice has one.
      const uil = `${dev}/_api/web/lists/getbytitle('User Information List')/items`;
      // Dave's id as the site numbered him (users step over the groups' 3, 4, 5).
      const daveLogin = encodeURIComponent("'i:0#.f|membership|dave@contoso.onmicrosoft.com'");
      const daveId = (await call(`${dev}/_api/web/siteusers/getbyloginname(@v)?@v=${daveLogin}&$select=Id`, { accept: ACCEPT.nometadata })).json.Id;
      for (const accept of [ACCEPT.verbose, ACCEPT.plain, ACCEPT.nometadata]) {
        const dave = await call(`${uil}?$filter=Id eq ${daveId}&$select=Picture`, { accept });
        assert.equal(dave.status, 200);
        const rows = accept === ACCEPT.verbose ? dave.json.d.results : dave.json.value;
        assert.equal(rows.length, 1);
        assert.equal(rows[0].Picture, null);
        assert.ok(dave.text.includes('"Picture":null'));
      }
      const a = await call(`${uil}(1)?$select=Picture`, { accept: ACCEPT.verbose });
      assert.deepEqual(keys(a.json.d.Picture), ['__metadata', 'Description', 'Url']);
      assert.equal(a.json.d.Picture.__metadata.type, 'SP.FieldUrlValue');
      assert.equal(a.json.d.__metadata.type, 'SP.Data.UserInfoItem');
    } finally {
      await s.close();
    }
  });
});

describe('writes (reference §8)', () => {
  const spemu = useTestServer();
  let site: string;
  let tasksId: string;
  let items: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
    tasksId = await listId(site, 'Tasks');
    items = `${site}/_api/web/lists/getbytitle('Tasks')/items`;
  });

  const locationRe = () => new RegExp(`^${site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/_api/Web/Lists\\(guid'${tasksId}'\\)/Items\\((\\d+)\\)$`);

  it('POST verbose with __metadata.type → 201, absolute Location, ETag, verbose entity', async () => {
    const r = await call(items, {
      method: 'POST', accept: ACCEPT.verbose, contentType: ACCEPT.verbose,
      body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'Verbose create', Priority: 2 },
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.verbose);
    assertStandardHeaders(r, false);
    const m = locationRe().exec(r.headers.get('location') ?? '');
    assert.ok(m, r.headers.get('location') ?? '(none)');
    assert.equal(r.headers.get('etag'), '"1"');
    const d = r.json.d;
    assert.deepEqual(keys(d.__metadata), ['id', 'uri', 'etag', 'type']);
    assert.equal(d.__metadata.type, 'SP.Data.TasksListItem');
    assert.equal(d.__metadata.uri, r.headers.get('location'));
    assert.equal(d.__metadata.etag, '"1"');
    assert.equal(d.Id, Number(m[1]));
    assert.equal(d.Title, 'Verbose create');
    assert.ok(r.text.includes('"Priority":2.0'));
  });

  it('POST JSON light without __metadata → 201 minimal entity', async () => {
    const r = await call(items, { method: 'POST', accept: ACCEPT.plain, body: { Title: 'Light create' } });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('content-type'), CONTENT_TYPE.minimal);
    assert.match(r.headers.get('location') ?? '', locationRe());
    assert.equal(r.headers.get('etag'), '"1"');
    assert.equal(r.json['odata.metadata'], `${site}/_api/$metadata#SP.ListData.TasksListItems/@Element`);
    assert.equal(r.json['odata.type'], 'SP.Data.TasksListItem');
    assert.equal(r.json['odata.etag'], '"1"');
    assert.equal(r.json.Title, 'Light create');
  });

  it('JSON light body with __metadata → 400 with SharePoint\'s exact message', async () => {
    const r = await call(items, { method: 'POST', accept: ACCEPT.plain, body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'x' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json, { 'odata.error': {
      code: '-1, Microsoft.SharePoint.Client.InvalidClientQueryException',
      message: { lang: 'en-US', value: "The property '__metadata' does not exist on type 'SP.Data.TasksListItem'. Make sure to only use property names that are defined by the type." },
    } });
  });

  it('verbose body without __metadata → 400 "An entry without a type name was found…"', async () => {
    const r = await call(items, { method: 'POST', accept: ACCEPT.verbose, contentType: ACCEPT.verbose, body: { Title: 'x' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json, { error: {
      code: '-1, Microsoft.SharePoint.Client.InvalidClientQueryException',
      message: { lang: 'en-US', value: 'An entry without a type name was found, but no expected type was specified. To allow entries without type information, the expected type must also be specified when the model is specified.' },
    } });
  });

  it('MERGE by X-HTTP-Method, PATCH and MERGE verbs, with IF-MATCH *, "N" and a stale etag', async () => {
    const created = await call(items, { method: 'POST', accept: ACCEPT.plain, body: { Title: 'v1' } });
    const id = created.json.Id as number;
    const url = `${items}(${id})`;

    const tunnelled = await call(url, {
      method: 'POST', accept: ACCEPT.verbose, contentType: ACCEPT.verbose,
      headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }, body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'v2' },
    });
    assert.equal(tunnelled.status, 204);
    assert.equal(tunnelled.text, '');
    assert.equal(tunnelled.headers.get('etag'), '"2"');
    assertStandardHeaders(tunnelled, false);

    const patched = await call(url, { method: 'PATCH', accept: ACCEPT.plain, headers: { 'IF-MATCH': '"2"' }, body: { Title: 'v3' } });
    assert.equal(patched.status, 204);
    assert.equal(patched.text, '');
    assert.equal(patched.headers.get('etag'), '"3"');

    const merged = await call(url, { method: 'MERGE', accept: ACCEPT.plain, headers: { 'If-Match': '"3"' }, body: { Title: 'v4' } });
    assert.equal(merged.status, 204);
    assert.equal(merged.headers.get('etag'), '"4"');

    for (const [accept, v4] of [[ACCEPT.plain, false], [ACCEPT.verbose, false], [ACCEPT.v4minimal, true]] as const) {
      const stale = await call(url, {
        method: 'POST', accept, v4, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '"1"' },
        ...(accept === ACCEPT.verbose ? { contentType: ACCEPT.verbose, body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'lost' } } : { body: { Title: 'lost' } }),
      });
      assert.equal(stale.status, 412);
      const code = '-1, Microsoft.SharePoint.Client.ClientServiceException';
      const message = "The request ETag value '\"1\"' does not match the object's ETag value '\"4\"'.";
      if (accept === ACCEPT.verbose) assert.deepEqual(stale.json, { error: { code, message: { lang: 'en-US', value: message } } });
      else if (v4) assert.deepEqual(stale.json, { error: { code, message } });
      else assert.deepEqual(stale.json, { 'odata.error': { code, message: { lang: 'en-US', value: message } } });
    }

    const read = await call(url, { accept: ACCEPT.plain });
    assert.equal(read.json.Title, 'v4');
    assert.equal(read.headers.get('etag'), '"4"');
    assert.equal(read.json['odata.etag'], '"4"');
  });

  it('DELETE via X-HTTP-Method (stale etag refused) and via the DELETE verb', async () => {
    const a = await call(items, { method: 'POST', accept: ACCEPT.plain, body: { Title: 'to delete A' } });
    const b = await call(items, { method: 'POST', accept: ACCEPT.plain, body: { Title: 'to delete B' } });
    const urlA = `${items}(${a.json.Id})`;
    const urlB = `${items}(${b.json.Id})`;

    const stale = await call(urlA, { method: 'POST', accept: ACCEPT.verbose, headers: { 'X-HTTP-Method': 'DELETE', 'IF-MATCH': '"9"' } });
    assert.equal(stale.status, 412);
    assert.equal(stale.json.error.message.value, "The request ETag value '\"9\"' does not match the object's ETag value '\"1\"'.");
    assert.equal((await call(urlA, { accept: ACCEPT.plain })).status, 200);

    const tunnelled = await call(urlA, { method: 'POST', accept: ACCEPT.verbose, headers: { 'X-HTTP-Method': 'DELETE', 'IF-MATCH': '*' } });
    assert.ok(tunnelled.status === 200 || tunnelled.status === 204, String(tunnelled.status));
    assert.equal(tunnelled.text, '');
    assert.equal((await call(urlA, { accept: ACCEPT.plain })).status, 404);

    const verb = await call(urlB, { method: 'DELETE', accept: ACCEPT.plain, headers: { 'IF-MATCH': '"1"' } });
    assert.ok(verb.status === 200 || verb.status === 204, String(verb.status));
    assert.equal(verb.text, '');
    assert.equal((await call(urlB, { accept: ACCEPT.plain })).status, 404);
  });

  it('items(N)/recycle(): verbose {"d":{"Recycle":guid}}, light {"odata.metadata":"…#Edm.Guid","value":guid}', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(items, { method: 'POST', accept: ACCEPT.plain, body: { Title: `recycle ${i}` } })).json.Id);

    const v = await call(`${items}(${ids[0]})/recycle()`, { method: 'POST', accept: ACCEPT.verbose });
    assert.equal(v.status, 200);
    assert.equal(v.headers.get('content-type'), CONTENT_TYPE.verbose);
    assert.deepEqual(keys(v.json), ['d']);
    assert.deepEqual(keys(v.json.d), ['Recycle']);
    assert.match(v.json.d.Recycle, GUID);

    const m = await call(`${items}(${ids[1]})/recycle()`, { method: 'POST', accept: ACCEPT.plain });
    assert.equal(m.status, 200);
    assert.equal(m.headers.get('content-type'), CONTENT_TYPE.minimal);
    assert.deepEqual(keys(m.json), ['odata.metadata', 'value']);
    assert.equal(m.json['odata.metadata'], `${site}/_api/$metadata#Edm.Guid`);
    assert.match(m.json.value, GUID);

    const n = await call(`${items}(${ids[2]})/recycle()`, { method: 'POST', accept: ACCEPT.nometadata });
    assert.deepEqual(keys(n.json), ['value']);
    assert.match(n.json.value, GUID);

    for (const id of ids) assert.equal((await call(`${items}(${id})`, { accept: ACCEPT.plain })).status, 404);
    const again = await call(`${items}(${ids[0]})/recycle()`, { method: 'POST', accept: ACCEPT.plain });
    assert.equal(again.status, 404);
  });
});
