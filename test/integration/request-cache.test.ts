// The REST front's per-URL caches (src/fronts/rest/request-cache.ts) never answer from a past
// state or for another user: the same URL read again after a change of metadata answers by
// the new metadata (a field added, then deleted; a web renamed), and the same URL sent by a
// user who may read and one who may not answers each by their own permissions, in any order.
// An item read by id reads only the columns its projection needs: every system property answers
// as in the items collection (which reads whole rows), for files, folders and list items.
// Plain fetch, exact statuses and bodies.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';

const basic = (upn: string) => `Basic ${Buffer.from(`${upn}:${upn.split('@')[0]}-demo-pass`).toString('base64')}`;
const ALICE = 'alice@contoso.onmicrosoft.com';
const ERIN = 'erin@contoso.onmicrosoft.com';

describe('per-URL request caches', () => {
  const spemu = useTestServer();
  let api: string;
  before(() => { api = `${spemu.server.site('/sites/dev')}/_api`; });

  async function call(method: string, path: string, options: { body?: unknown; user?: string; headers?: Record<string, string> } = {}) {
    const r = await fetch(`${api}/${path}`, {
      method,
      headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json', Authorization: basic(options.user ?? ALICE), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  }
  async function withDigest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const digest = (await call('POST', 'contextinfo')).body.FormDigestValue as string;
    return call(method, path, { body, headers: { 'X-RequestDigest': digest, ...headers } });
  }

  /** The titles of every page of `url`, following the next links. */
  async function walk(url: string): Promise<string[]> {
    const titles: string[] = [];
    for (let next: string | undefined = `${api}/${url}`; next;) {
      const r = await fetch(next, { headers: { Accept: 'application/json;odata=nometadata', Authorization: basic(ALICE) } });
      assert.equal(r.status, 200, next);
      const body = await r.json() as { value: Array<{ Title: string }>; 'odata.nextLink'?: string };
      titles.push(...body.value.map((v) => v.Title));
      next = body['odata.nextLink'];
    }
    return titles;
  }

  it('the same item URL answers by the list\'s fields as they are now: added, then deleted', async () => {
    const url = "web/lists/getbytitle('Tasks')/items(1)?$select=Title,Cached&$expand=Author";
    const unknown = await call('GET', url);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body['odata.error'].message.value, /Cached/);

    const added = await withDigest('POST', "web/lists/getbytitle('Tasks')/fields", { Title: 'Cached', FieldTypeKind: 2 });
    assert.equal(added.status, 201);
    const write = await withDigest('POST', "web/lists/getbytitle('Tasks')/items(1)", { Cached: 'now there' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' });
    assert.equal(write.status, 204);
    for (let i = 0; i < 3; i++) {
      const read = await call('GET', url);
      assert.equal(read.status, 200);
      assert.deepEqual(Object.keys(read.body), ['Title', 'Cached']);
      assert.equal(read.body.Cached, 'now there');
    }

    const deleted = await withDigest('POST', `web/lists/getbytitle('Tasks')/fields/getbyinternalnameortitle('Cached')`, undefined, { 'X-HTTP-Method': 'DELETE', 'IF-MATCH': '*' });
    assert.equal(deleted.status, 200);
    const gone = await call('GET', url);
    assert.equal(gone.status, 400);
    assert.match(gone.body['odata.error'].message.value, /Cached/);
  });

  it('the same web URL answers by the web as it is now', async () => {
    const before = (await call('GET', 'web?$select=Title')).body.Title as string;
    assert.equal((await call('GET', 'web?$select=Title')).body.Title, before);
    const renamed = await withDigest('POST', 'web', { Title: 'Renamed web' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' });
    assert.equal(renamed.status, 204);
    assert.deepEqual((await call('GET', 'web?$select=Title')).body, { Title: 'Renamed web' });
    await withDigest('POST', 'web', { Title: before }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' });
    assert.deepEqual((await call('GET', 'web?$select=Title')).body, { Title: before });
  });

  it('the same URL, sent by a user who may read and one who may not, answers each by their own permissions', async () => {
    const url = "web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/Title&$expand=Author";
    for (const round of [1, 2, 3]) {
      const alice = await call('GET', url);
      assert.equal(alice.status, 200, `round ${round}`);
      assert.equal(typeof alice.body.Title, 'string');
      // Erin has no role on the site: refused every time, right after Alice's answer was planned and sent.
      assert.equal((await call('GET', url, { user: ERIN })).status, 403, `round ${round}`);
    }
  });

  it('the route a URL resolved to, kept once served, is checked again for every caller and follows renames and broken inheritance', async () => {
    const DAVE = 'dave@contoso.onmicrosoft.com';
    assert.equal((await withDigest('POST', 'web/lists', { Title: 'Routed', BaseTemplate: 100 })).status, 201);
    assert.equal((await withDigest('POST', "web/lists/getbytitle('Routed')/items", { Title: 'one' })).status, 201);
    const urls = ["web/lists/getbytitle('Routed')/items(1)?$select=Title", "web/lists/getbytitle('Routed')/items?$select=Title", "web/lists/getbytitle('Routed')?$select=Title"];
    // Served to Alice (the route is kept), then to Dave, a visitor who may read: the same answers.
    for (const url of urls) {
      assert.equal((await call('GET', url)).status, 200, url);
      assert.equal((await call('GET', url, { user: DAVE })).status, 200, url);
    }
    // The list stops inheriting (copying no assignment): Alice, its owner, still reads; Dave, from the
    // very route Alice's request kept again, is refused every time.
    assert.equal((await withDigest('POST', "web/lists/getbytitle('Routed')/breakroleinheritance(copyRoleAssignments=false,clearSubscopes=false)")).status, 200);
    for (const round of [1, 2]) {
      for (const url of urls) {
        assert.equal((await call('GET', url)).status, 200, `${url}, round ${round}`);
        assert.equal((await call('GET', url, { user: DAVE })).status, 403, `${url}, round ${round}`);
      }
    }
    // Renamed: the old title's route is gone (404), the new one answers.
    assert.equal((await withDigest('POST', "web/lists/getbytitle('Routed')", { Title: 'Rerouted' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' })).status, 204);
    const old = await call('GET', urls[0]!);
    assert.equal(old.status, 404);
    assert.equal((await call('GET', "web/lists/getbytitle('Rerouted')/items(1)?$select=Title")).body.Title, 'one');
    // An item gone since its route was kept: the handler reads the data, so 404.
    assert.equal((await withDigest('DELETE', "web/lists/getbytitle('Rerouted')/items(1)", undefined, { 'IF-MATCH': '*' })).status, 200);
    assert.equal((await call('GET', "web/lists/getbytitle('Rerouted')/items(1)?$select=Title")).status, 404);
  });

  it('a page that reads only the selected columns pages by a sort key it does not select (system or custom) exactly as whole rows do', async () => {
    const list = "web/lists/getbytitle('Tasks')/items";
    // Items with equal and distinct Modified, Priority and Due values (ties are broken by Id).
    for (let i = 0; i < 7; i++) {
      const added = await withDigest('POST', list, { Title: `paged ${i}`, Priority: 1 + (i % 3), Due: `2026-0${1 + (i % 4)}-01T00:00:00Z` });
      assert.equal(added.status, 201);
    }
    for (const order of ['Modified desc', 'Created', 'Priority desc', 'Due', 'Priority,Modified desc', 'Id desc']) {
      const narrow = await walk(`${list}?$select=Title&$orderby=${order}&$top=2`);
      const whole = (await call('GET', `${list}?$orderby=${order}&$top=500`)).body.value.map((v: { Title: string }) => v.Title);
      assert.ok(whole.length >= 15, `${whole.length} items`);
      assert.deepEqual(narrow, whole, `$orderby=${order}`);
    }
  });

  it('pages sorted by an unselected custom field walk as whole rows do, the same URL again, and after a field is added, renamed or replaced', async () => {
    const items = "web/lists/getbytitle('Ranked')/items";
    const field = (name: string) => `web/lists/getbytitle('Ranked')/fields/getbyinternalnameortitle('${name}')`;
    assert.equal((await withDigest('POST', 'web/lists', { Title: 'Ranked', BaseTemplate: 100 })).status, 201);
    assert.equal((await withDigest('POST', "web/lists/getbytitle('Ranked')/fields", { Title: 'Rank', FieldTypeKind: 9 })).status, 201);
    const ranks = [3, 1, 2, 1, 10, 9, 2];
    for (const [i, Rank] of ranks.entries()) assert.equal((await withDigest('POST', items, { Title: `r${i}`, Rank })).status, 201);
    async function same(order: string, expected?: string[]) {
      const whole = (await call('GET', `${items}?$orderby=${order}&$top=500`)).body.value.map((v: { Title: string }) => v.Title);
      assert.equal(whole.length, ranks.length);
      if (expected) assert.deepEqual(whole, expected, `whole rows, $orderby=${order}`);
      // The same narrow URLs twice: the second walk reads by what the first kept.
      for (const round of [1, 2]) assert.deepEqual(await walk(`${items}?$select=Title&$orderby=${order}&$top=2`), whole, `$orderby=${order}, round ${round}`);
    }
    await same('Rank', ['r1', 'r3', 'r2', 'r6', 'r0', 'r5', 'r4']);
    // Ties are broken by Id, ascending whichever way the key sorts.
    await same('Rank desc', ['r4', 'r5', 'r0', 'r2', 'r6', 'r1', 'r3']);
    await same('Rank,Title desc', ['r3', 'r1', 'r6', 'r2', 'r0', 'r5', 'r4']);

    // A field added between requests: unknown before, then sorted by (with the kept key of Rank beside it).
    const unknown = await call('GET', `${items}?$select=Title&$orderby=Score,Rank&$top=2`);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body['odata.error'].message.value, /Score/);
    assert.equal((await withDigest('POST', "web/lists/getbytitle('Ranked')/fields", { Title: 'Score', FieldTypeKind: 9 })).status, 201);
    for (const [i, Score] of [1, 1, 0, 0, 1, 0, 1].entries()) {
      assert.equal((await withDigest('POST', `${items}(${i + 1})`, { Score }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' })).status, 204);
    }
    await same('Score,Rank', ['r3', 'r2', 'r5', 'r1', 'r6', 'r0', 'r4']);

    // Renamed (its title): still sorted by its internal name, as before.
    assert.equal((await withDigest('POST', field('Rank'), { Title: 'Position' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' })).status, 204);
    assert.equal((await call('GET', `${field('Position')}?$select=InternalName`)).body.InternalName, 'Rank');
    await same('Rank', ['r1', 'r3', 'r2', 'r6', 'r0', 'r5', 'r4']);

    // Replaced under the same internal name by a text field: its new column and text order ('10' before '9').
    assert.equal((await withDigest('POST', field('Rank'), undefined, { 'X-HTTP-Method': 'DELETE', 'IF-MATCH': '*' })).status, 200);
    assert.equal((await withDigest('POST', "web/lists/getbytitle('Ranked')/fields", { Title: 'Rank', FieldTypeKind: 2 })).status, 201);
    for (const [i, rank] of ranks.entries()) {
      assert.equal((await withDigest('POST', `${items}(${i + 1})`, { Rank: String(rank) }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' })).status, 204);
    }
    await same('Rank', ['r1', 'r3', 'r4', 'r2', 'r6', 'r0', 'r5']);
    await same('Score,Rank', ['r3', 'r2', 'r5', 'r1', 'r4', 'r6', 'r0']);
  });

  it('an item read by id answers every system property as the collection does (files, folders, items)', async () => {
    const SYSTEM = ['Id', 'ID', 'GUID', 'UniqueId', 'AuthorId', 'EditorId', 'AuthorStringId', 'EditorStringId', 'owshiddenversion',
      'ServerRedirectedEmbedUri', 'ServerRedirectedEmbedUrl', 'ComplianceAssetId', 'ContentTypeId', 'Created', 'Modified',
      'OData__UIVersionString', 'Attachments', 'FileSystemObjectType', 'FSObjType', 'FileRef', 'EncodedAbsUrl', 'FileLeafRef',
      'FileDirRef', 'File_x0020_Type', 'File_x0020_Size', 'SMTotalFileStreamSize', 'CheckoutUserId', 'Title'];
    for (const list of ['Documents', 'Tasks']) {
      const all = (await call('GET', `web/lists/getbytitle('${list}')/items?$select=Id&$top=50`)).body.value as Array<{ Id: number }>;
      assert.ok(all.length >= 3, `${list} has items`);
      for (const { Id } of all) {
        for (const select of [...SYSTEM.map((p) => [p]), SYSTEM, ['Title', 'Author/Title', 'FileRef'], ['*']]) {
          const expand = select.some((p) => p.startsWith('Author/')) ? '&$expand=Author' : '';
          const one = await call('GET', `web/lists/getbytitle('${list}')/items(${Id})?$select=${select.join(',')}${expand}`);
          // A page sorted by a system field reads whole rows (api/page-columns.ts): the reference.
          const whole = await call('GET', `web/lists/getbytitle('${list}')/items?$filter=Id eq ${Id}&$orderby=Modified&$select=${select.join(',')}${expand}`);
          // A page in id order reads only what the projection needs, as the read by id does.
          const page = await call('GET', `web/lists/getbytitle('${list}')/items?$filter=Id eq ${Id}&$select=${select.join(',')}${expand}`);
          assert.equal(one.status, 200, `${list} ${Id} ${select.join(',')}`);
          assert.deepEqual(one.body, whole.body.value[0], `${list} item ${Id}, $select=${select.join(',')}`);
          assert.deepEqual(page.body.value[0], whole.body.value[0], `${list} page of item ${Id}, $select=${select.join(',')}`);
        }
      }
    }
  });
});
