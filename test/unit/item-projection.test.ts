// What `$select` and `$expand` project from a list item (fronts/rest/api/item-projection.ts),
// over a real store: the default shape, chosen properties, user and lookup fields and their
// expansion, properties shown only when selected, ParentList, and the names refused.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { planItemProjection, renderItems } from '../../src/fronts/rest/api/item-projection.ts';
import { findSiteUser, userLogin } from '../../src/identity/site-users.ts';
import { SpError } from '../../src/wire/errors.ts';
import type { Entity, ExpandedValue, Value } from '../../src/wire/values.ts';
import { useApiFixture } from '../helpers/api-context.ts';
import { MARK, OLIVIA, referencesTenant } from '../helpers/fixtures.ts';

const use = useApiFixture(referencesTenant());

/** Plans `query` (a query string) for the Tasks list and renders its item 1. */
async function project(query: string) {
  const ctx = await use.api.context(`web/lists/getbytitle('Tasks')/items?${query}`);
  const list = (await ctx.store.lists.byTitle(ctx.web.id, 'Tasks'))!;
  const fields = await ctx.store.fields.of(list);
  const plan = await planItemProjection(list, fields, ctx);
  const items = await ctx.store.items.getMany(list, fields, [1], plan.load);
  const [entity] = await renderItems(plan, items, ctx);
  return { plan, entity: entity!, list };
}

const names = (entity: Entity) => entity.props.map(([k]) => k);
const prop = (entity: Entity, name: string): Value | undefined => entity.props.find(([k]) => k === name)?.[1];
const expanded = (entity: Entity, name: string) => prop(entity, name) as ExpandedValue;
const siteUserId = async (upn: string) => (await findSiteUser(use.api.store, use.api.site, userLogin(upn)))!.id;

async function refusedWith(query: string, message: string): Promise<void> {
  await assert.rejects(project(query), (e: unknown) => {
    assert.ok(e instanceof SpError, String(e));
    assert.equal(e.status, 400);
    assert.equal(e.message, message);
    return true;
  });
}

it('without $select: every default property in SharePoint\'s order, user and lookup fields as ids, navigation deferred', async () => {
  const { plan, entity } = await project('');
  assert.equal(plan.full, true);
  assert.equal(plan.load, undefined);
  assert.deepEqual(names(entity), [
    'FileSystemObjectType', 'Id', 'ServerRedirectedEmbedUri', 'ServerRedirectedEmbedUrl', 'ContentTypeId', 'Title', 'ComplianceAssetId',
    'OwnerId', 'OwnerStringId', 'WatchersId', 'WatchersStringId', 'RefId', 'RefCodeId', 'RefMultiId', 'Size',
    'ID', 'Modified', 'Created', 'AuthorId', 'EditorId', 'OData__UIVersionString', 'Attachments', 'GUID',
  ]);
  const olivia = await siteUserId(OLIVIA);
  assert.equal(prop(entity, 'OwnerId'), olivia);
  assert.equal(prop(entity, 'OwnerStringId'), String(olivia));
  assert.equal(prop(entity, 'RefId'), 2);
  assert.equal(prop(entity, 'AuthorId'), await siteUserId(MARK));
  assert.ok(entity.deferred?.includes('FieldValuesAsText'));
  assert.equal(entity.etag, '"1"');
  assert.equal(entity.type, 'SP.Data.TasksListItem');
});

it('$select: only the named properties, in the order named, and only their fields are read', async () => {
  const { plan, entity } = await project('$select=Size,Title,OwnerId,Id,Size');
  assert.equal(plan.full, false);
  assert.deepEqual(names(entity), ['Size', 'Title', 'OwnerId', 'Id']);
  assert.deepEqual(plan.load?.map((f) => f.internalName).sort(), ['Owner', 'Size', 'Title']);
  assert.equal(entity.deferred, undefined);
  // `*` brings the defaults back.
  assert.deepEqual(names((await project('$select=*')).entity), names((await project('')).entity));
});

it('properties that appear only when selected', async () => {
  const { entity, list } = await project('$select=FileRef,FileLeafRef,owshiddenversion,AuthorStringId');
  assert.deepEqual(entity.props, [
    ['FileRef', `${list.serverRelativeUrl}/1_.000`], ['FileLeafRef', '1_.000'], ['owshiddenversion', 1], ['AuthorStringId', String(await siteUserId(MARK))],
  ]);
  assert.equal(prop((await project('')).entity, 'FileRef'), undefined);
});

it('$expand of a user field with sub-properties selected: the user, with just those', async () => {
  const { plan, entity } = await project('$select=Title,Owner/Title,Owner/EMail&$expand=Owner');
  assert.deepEqual(names(entity), ['Owner', 'Title']);
  const owner = expanded(entity, 'Owner');
  assert.match(owner.navigationLink, /\/Items\(1\)\/Owner$/);
  assert.deepEqual((owner.value as Entity).props, [['Title', 'Olivia Owner'], ['EMail', 'olivia@fabrikam.com']]);
  assert.equal((owner.value as Entity).minimalMetadata, true);
  assert.deepEqual(plan.expansions[0]!.load?.map((f) => f.internalName).sort(), ['EMail', 'Title']);
});

it('multi-valued users expand to a list; Author (an item column) and lookups expand too', async () => {
  const { entity } = await project('$select=Watchers/Title,Author/Title,Ref/Title&$expand=Watchers,Author,Ref');
  const watchers = expanded(entity, 'Watchers').value as Entity[];
  assert.deepEqual(watchers.map((w) => prop(w, 'Title')).sort(), ['Mark Member', 'Olivia Owner']);
  assert.equal(prop(expanded(entity, 'Author').value as Entity, 'Title'), 'Mark Member');
  const ref = expanded(entity, 'Ref').value as Entity;
  assert.deepEqual(ref.props, [['Title', 'R2']]);
  assert.equal(ref.type, 'SP.Data.RefsListItem');
});

it('an expanded field without sub-properties gets the target\'s default properties; unselected expansions are dropped under $select', async () => {
  const whole = expanded((await project('$expand=Ref')).entity, 'Ref').value as Entity;
  assert.equal(prop(whole, 'Title'), 'R2');
  assert.equal(prop(whole, 'Code'), 'C2');
  const { entity } = await project('$select=Title&$expand=Ref');
  assert.deepEqual(names(entity), ['Title']);
});

it('ParentList: the item\'s list, expanded with what is selected below it', async () => {
  const { entity } = await project('$select=Title,ParentList/Title&$expand=ParentList');
  const parent = expanded(entity, 'ParentList').value as Entity;
  assert.deepEqual(parent.props.map(([k]) => k), ['Title']);
  assert.equal(prop(parent, 'Title'), 'Tasks');
  const nested = await project('$select=ParentList/RootFolder/ServerRelativeUrl&$expand=ParentList/RootFolder');
  const folder = expanded(expanded(nested.entity, 'ParentList').value as Entity, 'RootFolder').value as Entity;
  assert.deepEqual(folder.props, [['ServerRelativeUrl', '/sites/test/Lists/Tasks']]);
});

it('unknown names, names in the wrong case, and sub-properties of what has none are refused with SharePoint\'s texts', async () => {
  const unknown = (name: string) => `The field or property '${name}' does not exist.`;
  await refusedWith('$select=Nope', unknown('Nope'));
  await refusedWith('$select=title', unknown('title'));
  await refusedWith('$select=Size/Title', unknown('Size'));
  await refusedWith('$expand=Size', unknown('Size'));
  await refusedWith('$expand=Nope', unknown('Nope'));
  await refusedWith('$expand=Owner/Manager', unknown('Owner/Manager'));
  await refusedWith('$select=Owner/Nope&$expand=Owner', unknown('Nope'));
  await refusedWith('$expand=ParentList/Items', unknown('ParentList/Items'));
});

it('a user or lookup field named in $select without $expand is refused; by its Id it is not', async () => {
  await refusedWith('$select=Owner/Title', "The query to field 'Owner/Title' is not valid. The $select query string must specify the target fields and the $expand query string must contains Owner.");
  await refusedWith('$select=Ref', "The query to field 'Ref' is not valid. The $select query string must specify the target fields and the $expand query string must contains Ref.");
  await refusedWith('$select=ParentList/Title', "The query to field 'ParentList/Title' is not valid. The $select query string must specify the target fields and the $expand query string must contains ParentList.");
  assert.deepEqual(names((await project('$select=RefId')).entity), ['RefId']);
});
