// What User/Lookup references are called (fronts/rest/api/reference-names.ts), over a real
// store: the helper itself, and its two readers, FieldValuesAsText and an item's Versions.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { referenceNames } from '../../src/fronts/rest/api/reference-names.ts';
import { findSiteUser, userLogin } from '../../src/identity/site-users.ts';
import type { ComplexValue, Entity, Payload, Value } from '../../src/wire/values.ts';
import { useApiFixture } from '../helpers/api-context.ts';
import { MARK, OLIVIA, referencesTenant } from '../helpers/fixtures.ts';

const use = useApiFixture(referencesTenant());

async function tasks(ids: number[]) {
  const { store, web } = use.api;
  const list = (await store.lists.byTitle(web.id, 'Tasks'))!;
  const fields = await store.fields.of(list);
  return { list, fields, items: await store.items.getMany(list, fields, ids) };
}

async function siteUserId(upn: string): Promise<number> {
  return (await findSiteUser(use.api.store, use.api.site, userLogin(upn)))!.id;
}

it('users are named by their Title, with their email; lookups by the lookup field, Title by default', async () => {
  const { list, fields, items } = await tasks([1]);
  const names = await referenceNames(list, fields, items, await use.api.context(''));
  const olivia = await siteUserId(OLIVIA);
  const mark = await siteUserId(MARK);
  const olive = { value: 'Olivia Owner', email: 'olivia@fabrikam.com' };
  assert.deepEqual(names.get('Owner'), new Map([[olivia, olive]]));
  assert.deepEqual(names.get('Watchers'), new Map([[olivia, olive], [mark, { value: 'Mark Member', email: 'mark@fabrikam.com' }]]));
  assert.deepEqual(names.get('Ref'), new Map([[2, { value: 'R2', email: null }]]));
  assert.deepEqual(names.get('RefCode'), new Map([[1, { value: 'C1', email: null }]]));
  assert.deepEqual([...names.get('RefMulti')!.values()].map((n) => n.value).sort(), ['R1', 'R2']);
  // Author is the item's column, not a stored value (domain/items.ts storedValue).
  assert.deepEqual(names.get('Author'), new Map([[mark, { value: 'Mark Member', email: 'mark@fabrikam.com' }]]));
});

it('the ids of every item are gathered per field; fields with no reference in any item have no entry', async () => {
  const { list, fields, items } = await tasks([1, 2, 3]);
  const names = await referenceNames(list, fields, items, await use.api.context(''));
  assert.deepEqual([...names.get('Ref')!.entries()].sort(), [[1, { value: 'R1', email: null }], [2, { value: 'R2', email: null }]]);
  assert.deepEqual([...names.get('Owner')!.values()].map((n) => n.value).sort(), ['Mark Member', 'Olivia Owner']);

  const empty = await tasks([3]);
  const none = await referenceNames(empty.list, empty.fields, empty.items, await use.api.context(''));
  for (const field of ['Owner', 'Watchers', 'Ref', 'RefCode', 'RefMulti']) assert.equal(none.has(field), false, field);
  // Only reference fields are looked at.
  assert.equal(none.has('Title'), false);
});

async function payloadAt(path: string): Promise<Payload> {
  const { plan, ctx } = await use.api.plan(path);
  const outcome = await plan.run(ctx);
  assert.ok(outcome.payload);
  return outcome.payload;
}
const prop = (entity: Entity, name: string): Value | undefined => entity.props.find(([k]) => k === name)?.[1];

it('FieldValuesAsText shows the names', async () => {
  const payload = await payloadAt("web/lists/getbytitle('Tasks')/items(1)/FieldValuesAsText");
  assert.equal(payload.kind, 'entity');
  assert.equal(prop(payload.entity, 'Owner'), 'Olivia Owner');
  assert.equal(prop(payload.entity, 'Watchers'), 'Olivia Owner; Mark Member');
  assert.equal(prop(payload.entity, 'Ref'), 'R2');
  assert.equal(prop(payload.entity, 'RefCode'), 'C1');
  assert.equal(prop(payload.entity, 'RefMulti'), 'R1; R2');
});

it('a version shows them as FieldUserValue (with Email) and FieldLookupValue', async () => {
  const payload = await payloadAt("web/lists/getbytitle('Tasks')/items(1)/Versions");
  assert.equal(payload.kind, 'entitySet');
  const [version] = payload.entities;
  const olivia = await siteUserId(OLIVIA);
  assert.deepEqual(prop(version!, 'Owner'), {
    kind: 'complex', type: 'SP.FieldUserValue', props: [['LookupId', olivia], ['LookupValue', 'Olivia Owner'], ['Email', 'olivia@fabrikam.com']],
  });
  assert.deepEqual(prop(version!, 'RefCode'), { kind: 'complex', type: 'SP.FieldLookupValue', props: [['LookupId', 1], ['LookupValue', 'C1']] });
  const refs = prop(version!, 'RefMulti') as { items: ComplexValue[] };
  assert.deepEqual(refs.items.map((v) => v.props[1]), [['LookupValue', 'R1'], ['LookupValue', 'R2']]);
});
