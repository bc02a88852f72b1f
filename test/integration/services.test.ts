// The service layer on the leg's real database, with no protocol in front of it: its rules
// refuse in domain terms (a kind and a reason, no HTTP status, no SharePoint code), and a
// refused write leaves nothing behind. The REST front's tests see the same rules as SharePoint's
// errors; these show that they live below any front.

import { versionIdOf } from '../../src/domain/versions.ts';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, type FailureKind } from '../../src/domain/errors.ts';
import type { Field, List, Web } from '../../src/domain/model.ts';
import { Services } from '../../src/services/services.ts';
import { openStoreBackend, type StoreBackend } from '../helpers/store-backend.ts';

const NOW = '2024-06-01T12:00:00Z';
let b: StoreBackend;
let web: Web;
let services: Services;

/** `fn` is refused with this kind and reason. */
async function refused(fn: () => Promise<unknown>, kind: FailureKind, reason: string): Promise<DomainError> {
  let caught: unknown;
  await assert.rejects(async () => { try { await fn(); } catch (e) { caught = e; throw e; } });
  assert.ok(caught instanceof DomainError, `not a DomainError: ${String(caught)}`);
  assert.equal(caught.kind, kind, caught.message);
  assert.equal(caught.reason, reason);
  return caught;
}

before(async () => {
  b = await openStoreBackend();
  web = (await b.store.sites.create({ url: '/sites/services', title: 'Services', description: '', now: NOW })).web;
  services = new Services(b.store, { userId: 7, now: () => NOW });
});
after(() => b.close());

describe('lists', () => {
  test('a title is needed, of at most 255 characters, unique in the web (ignoring case)', async () => {
    await refused(() => services.lists.create(web, { title: '  ', description: '', baseTemplate: 100 }), 'invalid', 'badArgument');
    await refused(() => services.lists.create(web, { title: 'x'.repeat(256), description: '', baseTemplate: 100 }), 'invalid', 'badArgument');
    const made = await services.lists.create(web, { title: 'Projects', description: '', baseTemplate: 100 });
    assert.equal(made.title, 'Projects');
    await refused(() => services.lists.create(web, { title: 'PROJECTS', description: '', baseTemplate: 100 }), 'conflict', 'listAlreadyExists');
    assert.equal((await b.store.lists.inWeb(web.id)).filter((l) => l.title.toLowerCase() === 'projects').length, 1);
  });

  test('templates spemu does not know, and the User Information List\'s, are refused', async () => {
    await refused(() => services.lists.create(web, { title: 'Odd', description: '', baseTemplate: 99999 }), 'invalid', 'badArgument');
    await refused(() => services.lists.create(web, { title: 'Users', description: '', baseTemplate: 112 }), 'invalid', 'badArgument');
    assert.equal(await b.store.lists.byTitle(web.id, 'Odd'), undefined);
  });

  test('an update or delete with a stale If-Match fails its precondition and changes nothing', async () => {
    const list = await services.lists.create(web, { title: 'Guarded', description: '', baseTemplate: 100 });
    const stale = { ifMatch: `"${list.version + 5}"` };
    const e = await refused(() => services.lists.update(list, { title: 'Renamed' }, stale), 'preconditionFailed', 'etagMismatch');
    assert.deepEqual(e.args, [stale.ifMatch, `"${list.version}"`]);
    await refused(() => services.lists.delete(list, stale), 'preconditionFailed', 'etagMismatch');
    assert.equal((await b.store.lists.byId(web.id, list.id))?.title, 'Guarded');
    const renamed = await services.lists.update(list, { title: 'Renamed' }, { ifMatch: `"${list.version}"` });
    assert.equal(renamed.title, 'Renamed');
    await services.lists.delete(renamed, { ifMatch: '*' });
    assert.equal(await b.store.lists.byId(web.id, list.id), undefined);
  });

  test('renaming onto another list\'s title is a conflict; changing only the case of one\'s own is not', async () => {
    const a = await services.lists.create(web, { title: 'Alpha', description: '', baseTemplate: 100 });
    await services.lists.create(web, { title: 'Beta', description: '', baseTemplate: 100 });
    await refused(() => services.lists.update(a, { title: 'beta' }, {}), 'conflict', 'listAlreadyExists');
    assert.equal((await services.lists.update(a, { title: 'ALPHA' }, {})).title, 'ALPHA');
  });
});

describe('fields and items', () => {
  let list: List;
  let fields: Field[];
  before(async () => {
    list = await services.lists.create(web, { title: 'Work', description: '', baseTemplate: 100 });
    await services.fields.add(list, { internalName: 'Owner', title: 'Owner', kind: 'Text', required: true, indexed: false, hidden: false, options: {} });
    fields = await b.store.fields.of(list);
  });

  test('a clashing internal name is numbered; a lookup needs a list of the web; built-in fields stay', async () => {
    const second = await services.fields.add(list, { internalName: 'Owner', title: 'Owner again', kind: 'Text', required: false, indexed: false, hidden: false, options: {} });
    assert.equal(second.internalName, 'Owner0');
    await refused(() => services.fields.add(list, { internalName: 'Ref', title: 'Ref', kind: 'Lookup', required: false, indexed: false, hidden: false,
      options: { lookupListId: '00000000-0000-0000-0000-000000000000' } }), 'notFound', 'listNotFoundById');
    const created = fields.find((f) => f.internalName === 'Created')!;
    await refused(() => services.fields.delete(list, created), 'invalid', 'badArgument');
    await refused(() => services.fields.update(list, created, { required: true }), 'invalid', 'badArgument');
    assert.ok((await b.store.fields.of(list)).some((f) => f.internalName === 'Created'));
  });

  test('a required field must have a value on create, and cannot be emptied by an update', async () => {
    await refused(() => services.items.create(list, fields, { Title: 'No owner' }), 'invalid', 'validationFailed');
    assert.equal((await b.store.items.query(list, fields, { orderBy: [], top: 10, lookups: new Map() })).items.length, 0);
    const item = await services.items.create(list, fields, { Title: 'Owned', Owner: 'ann' });
    assert.equal(item.authorId, 7, 'the actor is the author');
    await refused(() => services.items.update(list, fields, item.id, { Owner: '' }, {}), 'invalid', 'validationFailed');
    assert.equal((await b.store.items.get(list, fields, item.id))?.values.Owner, 'ann');
  });

  test('a stale If-Match names the version that is current; a gone item is notFound', async () => {
    const item = await services.items.create(list, fields, { Title: 'v1', Owner: 'bo' });
    const updated = await services.items.update(list, fields, item.id, { Title: 'v2' }, { ifMatch: `"${item.version}"` });
    const e = await refused(() => services.items.update(list, fields, item.id, { Title: 'v3' }, { ifMatch: `"${item.version}"` }), 'preconditionFailed', 'etagMismatch');
    assert.deepEqual(e.args, [`"${item.version}"`, `"${updated.version}"`]);
    await refused(() => services.items.delete(list, fields, item.id, { ifMatch: '"999"' }), 'preconditionFailed', 'etagMismatch');
    await services.items.delete(list, fields, item.id, { ifMatch: `"${updated.version}"` });
    await refused(() => services.items.update(list, fields, item.id, { Title: 'gone' }, {}), 'notFound', 'itemNotFound');
    await refused(() => services.items.recycle(list, fields, item.id), 'notFound', 'itemNotFound');
  });

  test('the current version cannot be deleted through the versions; a past one can', async () => {
    const item = await services.items.create(list, fields, { Title: 'one', Owner: 'cy' });
    const now = await services.items.update(list, fields, item.id, { Title: 'two' }, {});
    // Versions are named by VersionId (512 × major + minor), as SharePoint's endpoints name them.
    await refused(() => services.versions.delete(list, item.id, versionIdOf(now)), 'invalid', 'currentVersionDelete');
    assert.deepEqual((await b.store.versions.of(list, item.id)).map((v) => v.uiVersion), [item.uiVersion], 'the past version is kept');
    await refused(() => services.versions.delete(list, item.id, item.uiVersion), 'notFound', 'versionNotFound');
    await services.versions.delete(list, item.id, versionIdOf(item));
    await refused(() => services.versions.delete(list, item.id, versionIdOf(item)), 'notFound', 'versionNotFound');
    assert.deepEqual(await b.store.versions.of(list, item.id), []);
    assert.equal((await b.store.items.get(list, fields, item.id))?.values.Title, 'two', 'the item itself stays');
  });
});
