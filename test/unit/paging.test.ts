// Server-driven paging (fronts/rest/api/paging.ts) over a real store: `$top` clamping, what a
// `$skiptoken` positions at, the next link (its token, the options it keeps, ASP.NET's
// encoding), and paging forwards and backwards through a list with the resolver.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Field } from '../../src/domain/model.ts';
import { nextLink, pageSize, positionFromSkipToken, urlEncode } from '../../src/fronts/rest/api/paging.ts';
import type { SortKey } from '../../src/store/store.ts';
import { SpError } from '../../src/wire/errors.ts';
import type { EntitySet } from '../../src/wire/values.ts';
import { ORIGIN, useApiFixture } from '../helpers/api-context.ts';
import { minimalTenant } from '../helpers/server.ts';

const use = useApiFixture(minimalTenant({
  lists: [{
    title: 'Tasks', url: 'Lists/Tasks', fields: [{ name: 'Size', type: 'Number' }, { name: 'Note', type: 'Text' }],
    items: [1, 2, 3, 4, 5].map((n) => ({ Title: `T${n}`, Size: n * 10, Note: n === 2 ? 'a b&c' : `n${n}` })),
  }],
}));

const ITEMS = "web/lists/getbytitle('Tasks')/items";

async function tasks() {
  const { store, web } = use.api;
  const list = (await store.lists.byTitle(web.id, 'Tasks'))!;
  const fields = await store.fields.of(list);
  const key = (name: string, descending = false): SortKey => ({ field: fields.find((f: Field) => f.internalName === name)!, descending });
  return { list, fields, key, item: async (id: number) => (await store.items.getMany(list, fields, [id]))[0]! };
}

it('$top: the default page size when absent, never above the largest', async () => {
  const settings = { defaultPageSize: 7, maxPageSize: 50 };
  assert.equal(pageSize(await use.api.context(ITEMS, { settings })), 7);
  assert.equal(pageSize(await use.api.context(`${ITEMS}?$top=3`, { settings })), 3);
  assert.equal(pageSize(await use.api.context(`${ITEMS}?$top=50`, { settings })), 50);
  assert.equal(pageSize(await use.api.context(`${ITEMS}?$top=51`, { settings })), 50);
  assert.equal(pageSize(await use.api.context(`${ITEMS}?$top=0`, { settings })), 0);
});

it('a skiptoken positions at its p_ID and the sort keys\' values, typed as their fields are', async () => {
  const { key } = await tasks();
  const keys = [key('Size', true), key('Note')];
  assert.equal(positionFromSkipToken(await use.api.context(ITEMS), keys), undefined);
  const at = async (token: string) => positionFromSkipToken(await use.api.context(`${ITEMS}?$skiptoken=${encodeURIComponent(token)}`), keys);
  assert.deepEqual(await at('Paged=TRUE&p_Size=30&p_Note=n3&p_ID=3'), { id: 3, values: [30, 'n3'] });
  // Empty and missing values are null; p_ID in any case; a number that is not one is null.
  assert.deepEqual(await at('Paged=TRUE&p_Size=&p_id=4'), { id: 4, values: [null, null] });
  assert.deepEqual(await at('Paged=TRUE&p_Size=abc&p_Note=&p_ID=4'), { id: 4, values: [null, null] });
  // The value names are case-sensitive, as the field names are.
  assert.deepEqual(await at('Paged=TRUE&p_size=30&p_ID=4'), { id: 4, values: [null, null] });
  // Sent with the inner `&` unencoded, as some clients do: folded back into the token.
  assert.deepEqual(positionFromSkipToken(await use.api.context(`${ITEMS}?$skiptoken=Paged=TRUE&p_Size=20&p_ID=2`), keys), { id: 2, values: [20, null] });
});

it('a skiptoken without a whole-number p_ID is the expression error, quoting the token', async () => {
  for (const token of ['Paged=TRUE', 'Paged=TRUE&p_ID=x', 'Paged=TRUE&p_ID=-1', 'Paged=TRUE&p_ID=1.5']) {
    const ctx = await use.api.context(`${ITEMS}?$skiptoken=${encodeURIComponent(token)}`);
    assert.throws(() => positionFromSkipToken(ctx, []), (e: unknown) => {
      assert.ok(e instanceof SpError);
      assert.equal(e.status, 400);
      assert.equal(e.message, `The expression "${token}" is not valid.`);
      return true;
    });
  }
});

it('urlEncode writes as ASP.NET does: lower-case hex, + for spaces', () => {
  assert.equal(urlEncode("$skiptoken=Paged=TRUE&p_ID=5"), '%24skiptoken%3dPaged%3dTRUE%26p_ID%3d5');
  assert.equal(urlEncode('a b/é'), 'a+b%2f%c3%a9');
  assert.equal(urlEncode("Title eq 'x'"), "Title+eq+'x'");
});

it('the next link: sort keys\' values then p_ID after the last item, the other options kept, the old token dropped', async () => {
  const { key, item } = await tasks();
  const ctx = await use.api.context(`${ITEMS}?$select=Title,Note&$orderby=Note&$top=2&$skiptoken=Paged%3DTRUE%26p_ID%3D1`);
  const link = nextLink(ctx, [key('Note')], await item(2));
  assert.equal(link, `${ORIGIN}/sites/test/_api/web/lists/getbytitle('Tasks')/items?%24skiptoken=${urlEncode('Paged=TRUE&p_Note=a%20b%26c&p_ID=2')}`
    + `&%24select=Title%2cNote&%24orderby=Note&%24top=2`);
  // A null value is written empty; an ID key is not repeated before p_ID.
  const empty = nextLink(await use.api.context(`${ITEMS}?$orderby=ID desc`), [key('ID', true), key('Size')], { ...(await item(3)), values: {} });
  assert.equal(new URL(empty).searchParams.get('$skiptoken'), 'Paged=TRUE&p_Size=&p_ID=3');
});

it('backwards: the next link carries PagedPrev', async () => {
  const { item } = await tasks();
  const ctx = await use.api.context(`${ITEMS}?$top=2&$skiptoken=${encodeURIComponent('Paged=TRUE&PagedPrev=TRUE&p_ID=5')}`);
  assert.equal(new URL(nextLink(ctx, [], await item(3))).searchParams.get('$skiptoken'), 'Paged=TRUE&PagedPrev=TRUE&p_ID=3');
});

/** GETs a page of items through the resolver: the ids and the next link relative to `/_api/`. */
async function page(path: string): Promise<{ ids: number[]; next: string | undefined }> {
  const { plan, ctx } = await use.api.plan(path);
  const set = (await plan.run(ctx)).payload as EntitySet;
  const ids = set.entities.map((e) => e.props.find(([k]) => k === 'Id')![1] as number);
  return { ids, next: set.nextLink?.slice(`${ORIGIN}/sites/test/_api/`.length) };
}

it('paging through a list forwards by its next links, then backwards', async () => {
  const first = await page(`${ITEMS}?$top=2&$select=Id`);
  assert.deepEqual(first.ids, [1, 2]);
  const second = await page(first.next!);
  assert.deepEqual(second.ids, [3, 4]);
  const last = await page(second.next!);
  assert.deepEqual(last.ids, [5]);
  assert.equal(last.next, undefined);

  const back = await page(`${ITEMS}?$top=2&$select=Id&$skiptoken=${encodeURIComponent('Paged=TRUE&PagedPrev=TRUE&p_ID=5')}`);
  assert.deepEqual(back.ids, [3, 4]);
  assert.match(decodeURIComponent(back.next!), /\$skiptoken=Paged=TRUE&PagedPrev=TRUE&p_ID=3&/);
  const front = await page(back.next!);
  assert.deepEqual(front.ids, [1, 2]);
  assert.equal(front.next, undefined);
});

it('paging in a sort order: the next link positions by the key\'s value', async () => {
  const first = await page(`${ITEMS}?$top=2&$select=Id&$orderby=Size desc`);
  assert.deepEqual(first.ids, [5, 4]);
  assert.match(decodeURIComponent(first.next!), /\$skiptoken=Paged=TRUE&p_Size=40&p_ID=4&/);
  assert.deepEqual((await page(first.next!)).ids, [3, 2]);
});
