// The compiled item writers (fronts/rest/api/item-writer.ts, kept per plan and dialect in
// request-cache.ts) never write a stale shape: the same item URL read in one dialect, then
// another, then the first again, answers each in its own dialect, exactly; and after a field is
// added to the list (then given a value, then deleted), the same URLs — a single item and a page,
// in every dialect they were already written in — answer by the list's fields as they are now.
// A real spemu over the demo tenant, plain fetch, exact bodies (entity ids, fresh per answer, aside).

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';

const ACCEPT = {
  minimal: { Accept: 'application/json' },
  verbose: { Accept: 'application/json;odata=verbose' },
  nometadata: { Accept: 'application/json;odata=nometadata' },
  'v4-minimal': { Accept: 'application/json', 'OData-Version': '4.0' },
  'v4-full': { Accept: 'application/json;odata.metadata=full', 'OData-Version': '4.0' },
  'v4-none': { Accept: 'application/json;odata.metadata=none', 'OData-Version': '4.0' },
};
type Dialect = keyof typeof ACCEPT;
const ID = /("(?:odata\.id|@odata\.id|id)":)"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g;

describe('compiled item writers and the shapes they were made for', () => {
  const spemu = useTestServer();
  let api: string;
  let list: string;
  before(async () => {
    api = `${spemu.server.site('/sites/dev')}/_api/`;
    const r = await fetch(`${api}web/lists/getbytitle('Tasks')?$select=Id`, { headers: ACCEPT.nometadata });
    list = `Web/Lists(guid'${((await r.json()) as { Id: string }).Id}')/Items(1)`;
  });

  async function get(path: string, dialect: Dialect): Promise<{ text: string; etag: string | null }> {
    const r = await fetch(`${api}${path}`, { headers: ACCEPT[dialect] });
    assert.equal(r.status, 200, `${dialect} ${path}`);
    return { text: (await r.text()).replace(ID, '$1"<id>"'), etag: r.headers.get('etag') };
  }
  async function write(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<number> {
    const r = await fetch(`${api}${path}`, {
      method, headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await r.arrayBuffer();
    return r.status;
  }

  it('the same URL in one dialect, then another, then the first again: each answered exactly in its own', async () => {
    const select = 'Title,Author/Title';
    const url = `web/lists/getbytitle('Tasks')/items(1)?$select=${select}&$expand=Author`;
    const etag = (await get(url, 'nometadata')).etag!;
    const v = etag.replaceAll('"', '');
    const light = (a: Record<string, string>, element: string, typePrefix: string) =>
      `{"${a.context}":"${api}$metadata#SP.ListData.TasksListItems${element}&$select=${select}","${a.type}":"${typePrefix}SP.Data.TasksListItem","${a.id}":"<id>",`
      + `"${a.etag}":"\\"${v}\\"","${a.editLink}":"${list}","Author${a.navigation}":"${list}/Author",`
      + `"Author":{"${a.type}":"${typePrefix}SP.Data.UserInfoItem","${a.id}":"<id>","Title":"Alice Adams"},"Title":"Write spec"}`;
    const v3 = { context: 'odata.metadata', type: 'odata.type', id: 'odata.id', etag: 'odata.etag', editLink: 'odata.editLink', navigation: '@odata.navigationLinkUrl' };
    const v4 = { context: '@odata.context', type: '@odata.type', id: '@odata.id', etag: '@odata.etag', editLink: '@odata.editLink', navigation: '@odata.navigationLink' };
    const none = '{"Author":{"Title":"Alice Adams"},"Title":"Write spec"}';
    const expected: Record<Dialect, string> = {
      minimal: light(v3, '/@Element', ''),
      verbose: `{"d":{"__metadata":{"id":"<id>","uri":"${api}${list}","etag":"\\"${v}\\"","type":"SP.Data.TasksListItem"},`
        + '"Author":{"__metadata":{"id":"<id>","type":"SP.Data.UserInfoItem"},"Title":"Alice Adams"},"Title":"Write spec"}}',
      nometadata: none,
      'v4-minimal': light(v4, '/$entity', '#'),
      'v4-full': light(v4, '/$entity', '#'),
      'v4-none': none,
    };
    const order: Dialect[] = ['minimal', 'verbose', 'minimal', 'nometadata', 'v4-full', 'verbose', 'v4-none', 'v4-minimal', 'nometadata', 'minimal'];
    for (const dialect of order) assert.equal((await get(url, dialect)).text, expected[dialect], dialect);
  });

  it('a field added, given a value, then deleted: the same URLs written before answer by the fields as they are now', async () => {
    const item = "web/lists/getbytitle('Tasks')/items(1)";
    const page = "web/lists/getbytitle('Tasks')/items?$top=2";
    const dialects: Dialect[] = ['nometadata', 'verbose', 'v4-full', 'minimal'];
    /** The item's members (without annotations) in each dialect, single and first of the page. */
    async function members(): Promise<Array<Record<string, unknown>>> {
      const out: Array<Record<string, unknown>> = [];
      for (const dialect of dialects) {
        const one = JSON.parse((await get(item, dialect)).text);
        const set = JSON.parse((await get(page, dialect)).text);
        for (const e of dialect === 'verbose' ? [one.d, set.d.results[0]] : [one, set.value[0]]) {
          out.push(Object.fromEntries(Object.entries(e as Record<string, unknown>).filter(([k]) => !k.includes('odata') && !k.startsWith('__')
            && !(e[k] && typeof e[k] === 'object' && '__deferred' in (e[k] as object)))));
        }
      }
      return out;
    }
    const before = await members();
    for (const m of before) assert.equal('Fresh' in m, false);

    assert.equal(await write('POST', "web/lists/getbytitle('Tasks')/fields", { Title: 'Fresh', FieldTypeKind: 2 }), 201);
    for (const m of await members()) {
      const names = Object.keys(m);
      // A custom field's property sits before ID, after the others (item-wire.ts).
      assert.equal(names[names.indexOf('ID') - 1], 'Fresh', names.join());
      assert.equal(m.Fresh, null);
    }
    assert.equal(await write('POST', `${item}`, { Fresh: 'now there' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }), 204);
    for (const m of await members()) assert.equal(m.Fresh, 'now there');

    assert.equal(await write('POST', "web/lists/getbytitle('Tasks')/fields/getbyinternalnameortitle('Fresh')", undefined, { 'X-HTTP-Method': 'DELETE', 'IF-MATCH': '*' }), 200);
    const after = await members();
    for (const m of after) assert.equal('Fresh' in m, false);
    assert.deepEqual(after.map((m) => Object.keys(m)), before.map((m) => Object.keys(m)));
  });
});
