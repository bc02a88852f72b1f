// What a page of items sorted by a field it does not select reads (fronts/rest/api/page-columns.ts):
// the same arrays from one request to the next while the list's fields stand, so the store's
// column list per fields array (store/sql/item-table.ts `columnList`) is made once, not per
// request; made afresh from the new fields once a field is added or renamed.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { planItemProjection } from '../../src/fronts/rest/api/item-projection.ts';
import { pageColumns } from '../../src/fronts/rest/api/page-columns.ts';
import { findField } from '../../src/domain/fields.ts';
import { useApiFixture } from '../helpers/api-context.ts';
import { referencesTenant } from '../helpers/fixtures.ts';

const use = useApiFixture(referencesTenant());

/** A page request's plan, fields and sort keys, as types/items.ts has them (`$orderby` of `names`, all custom or Title). */
async function pageOf(select: string, names: string[], descending = false) {
  const ctx = await use.api.context(`web/lists/getbytitle('Tasks')/items?$select=${select}&$orderby=${names.join(',')}`);
  const list = (await ctx.store.lists.byTitle(ctx.web.id, 'Tasks'))!;
  const fields = await ctx.store.fields.of(list);
  const plan = await planItemProjection(list, fields, ctx);
  const keys = names.map((n) => ({ field: findField(fields, n)!.field, descending }));
  return { ctx, list, fields, plan, keys };
}

const names = (load: { internalName: string }[] | undefined) => load?.map((f) => f.internalName);

it('a page sorted by an unselected custom field reads the same arrays on every request while the fields stand', async () => {
  const first = await pageOf('Title', ['Size']);
  const again = await pageOf('Title', ['Size'], true);
  assert.equal(again.plan, first.plan, 'the plan is kept per URL shape');
  const a = pageColumns(first.plan, first.keys);
  const b = pageColumns(again.plan, again.keys);
  assert.deepEqual(names(a.load), ['Title', 'Size']);
  assert.equal(b.load, a.load, 'the same load array: the store\'s column list for it is a cache hit');
  assert.equal(b.parts, a.parts);
  // Two keys, and a system key (whole rows): kept too.
  const two = await pageOf('Title', ['Size', 'Owner']);
  assert.equal(pageColumns(two.plan, two.keys).load, pageColumns(two.plan, two.keys).load);
  assert.deepEqual(names(pageColumns(two.plan, two.keys).load), ['Title', 'Size', 'Owner']);
  const modified = await pageOf('Title', ['Modified']);
  const whole = pageColumns(modified.plan, modified.keys);
  assert.equal(whole.parts, undefined, 'a system sort key reads whole rows');
  assert.equal(pageColumns(modified.plan, modified.keys).load, whole.load);
  // Keys the plan already reads add nothing: the plan's own arrays.
  const selected = await pageOf('Title,Size', ['Size']);
  assert.equal(pageColumns(selected.plan, selected.keys).load, selected.plan.load);
});

it('a field added or renamed between requests is read from the new fields, not from what was kept', async () => {
  const before = await pageOf('Title', ['Size']);
  const kept = pageColumns(before.plan, before.keys);
  await before.ctx.services.fields.add(before.list, { internalName: 'Rank', title: 'Rank', kind: 'Number', required: false, indexed: false, hidden: false, options: {} });
  const added = await pageOf('Title', ['Rank', 'Size']);
  assert.notEqual(added.fields, before.fields);
  const withRank = pageColumns(added.plan, added.keys);
  assert.deepEqual(names(withRank.load), ['Title', 'Rank', 'Size']);
  for (const f of withRank.load!) assert.ok(added.fields.includes(f), `${f.internalName} is the list's field as it is now`);
  const size = pageColumns(added.plan, (await pageOf('Title', ['Size'])).keys);
  assert.notEqual(size.load, kept.load, 'made again from the new fields');

  await added.ctx.services.fields.update(added.list, findField(added.fields, 'Size')!.field, { title: 'Size renamed' });
  const renamed = await pageOf('Title', ['Size']);
  const after = pageColumns(renamed.plan, renamed.keys);
  const field = after.load!.find((f) => f.internalName === 'Size')!;
  assert.equal(field.title, 'Size renamed');
  assert.equal(field, findField(renamed.fields, 'Size')!.field);
});
