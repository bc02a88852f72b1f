// Related items (SP.RelatedItemManager) through an unmodified @pnp/sp 4.x client, as PnPjs's own
// test drives them: two Tasks lists (template 107, born with the hidden RelatedItems field),
// links added by list id and item id, to a document by its URL, removed, and read back whole and
// as the first page. Then the wire (plain fetch): SP.RelatedItem's shape in JSON light and
// verbose, the void answers, the link kept in the item's field without a new version; who may
// do what (a visitor reads but may not link; items the caller may not see are left out); and
// SharePoint's refusals for a missing item, an unknown list and a list that holds no links.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/related-items/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-groups/index.js';
import type { IList } from '@pnp/sp/lists/types.js';
import '../helpers/pnp-file-types.ts';
import '../helpers/pnp-related-items-types.ts';
import { demoBasic, demoDigest, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';

const DAVE = 'dave@contoso.onmicrosoft.com';
const READ = 1073741826;

describe('PnPjs related items against spemu', () => {
  const spemu = usePnpSite();
  let source: IList;
  let target: IList;
  let sourceId: string;
  let targetId: string;
  let webUrl: string;
  let webId: string;
  const add = async (list: IList, title: string) => (await list.items.add({ Title: title })).Id as number;

  before(async () => {
    const s = await spemu.sp.web.lists.ensure('RelatedItemsSourceList', '', 107);
    const t = await spemu.sp.web.lists.ensure('RelatedItemsTargetList', '', 107);
    source = s.list;
    target = t.list;
    sourceId = s.data.Id;
    targetId = t.data.Id;
    ({ ServerRelativeUrl: webUrl, Id: webId } = await spemu.sp.web.select('ServerRelativeUrl', 'Id')());
  });

  /** A plain POST to `_api/SP.RelatedItemManager.<method>`, as Alice (no credentials) or a demo user. */
  async function call(method: string, body: unknown, accept: string = ACCEPT.nometadata, upn?: string) {
    const auth: Record<string, string> = upn ? { Authorization: demoBasic(upn), 'X-RequestDigest': (await demoDigest(spemu.site, upn))! } : {};
    const r = await fetch(`${spemu.site}/_api/SP.RelatedItemManager.${method}`, {
      method: 'POST', body: JSON.stringify(body), headers: { Accept: accept, 'Content-Type': 'application/json', ...auth },
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) as any : undefined };
  }

  it('the calls PnPjs\'s own test makes: link, link to a file, unlink, read all and page one', async () => {
    const r = spemu.sp.web.relatedItems;
    const a = await add(source, 'Source A');
    const t1 = await add(target, 'Target 1');
    await r.addSingleLink(sourceId, a, webUrl, targetId, t1, webUrl);

    const file = await spemu.sp.web.defaultDocumentLibrary.rootFolder.files.addUsingPath('related.txt', 'Test File', { Overwrite: true });
    const t2 = await add(target, 'Target 2');
    await r.addSingleLinkToUrl(targetId, t2, file.ServerRelativeUrl);
    const toFile = await r.getRelatedItems(targetId, t2);
    assert.equal(toFile.length, 1);
    assert.deepEqual([toFile[0]!.Title, toFile[0]!.Url, toFile[0]!.IconUrl], ['related.txt', file.ServerRelativeUrl, '/_layouts/15/images/ictxt.png']);

    const t3 = await add(target, 'Target 3');
    await r.addSingleLink(sourceId, a, webUrl, targetId, t3, webUrl);
    await r.addSingleLink(sourceId, a, webUrl, targetId, t3, webUrl);
    const all = await r.getRelatedItems(sourceId, a);
    assert.ok(Array.isArray(all));
    assert.deepEqual(all.map((i) => [i.ItemId, i.Title]), [[t1, 'Target 1'], [t3, 'Target 3']], 'in the order added, a repeated link kept once');
    assert.deepEqual(all[0], {
      ListId: targetId, ItemId: t1, Url: `${webUrl}/Lists/RelatedItemsTargetList/DispForm.aspx?ID=${t1}`, Title: 'Target 1', WebId: webId,
      IconUrl: '/_layouts/15/images/icgen.gif',
    });
    assert.equal((await r.getPageOneRelatedItems(sourceId, a)).length, 2);

    await r.deleteSingleLink(sourceId, a, webUrl, targetId, t1, webUrl);
    assert.deepEqual((await r.getRelatedItems(sourceId, a)).map((i) => i.ItemId), [t3]);
    await r.deleteSingleLink(sourceId, a, webUrl, targetId, t1, webUrl);
    assert.equal((await r.getRelatedItems(sourceId, a)).length, 1, 'removing a link that is not there is no error');
    assert.deepEqual(await r.getRelatedItems(targetId, t1), [], 'no reverse link unless asked for');
  });

  it('by title, the reverse link, a link from a URL, and a linked item gone or deleted', async () => {
    const r = spemu.sp.web.relatedItems;
    const a = await add(source, 'Source B');
    const t = await add(target, 'Target B');
    await r.addSingleLink('RelatedItemsSourceList', a, webUrl, 'RelatedItemsTargetList', t, webUrl, true);
    assert.deepEqual((await r.getRelatedItems('RelatedItemsTargetList', t)).map((i) => [i.ListId, i.ItemId]), [[sourceId, a]], 'TryAddReverseLink links back');
    await r.deleteSingleLink(sourceId, a, webUrl, targetId, t, webUrl, true);
    assert.deepEqual(await r.getRelatedItems(targetId, t), [], 'TryDeleteReverseLink removes both');

    const gone = await add(target, 'Gone');
    await r.addSingleLinkFromUrl(`${webUrl}/Lists/RelatedItemsSourceList/DispForm.aspx?ID=${a}`, targetId, gone);
    assert.deepEqual((await r.getRelatedItems(sourceId, a)).map((i) => i.ItemId), [gone], 'a display-form URL names the source');
    await target.items.getById(gone).delete();
    assert.deepEqual(await r.getRelatedItems(sourceId, a), [], 'a deleted item is left out');
    await r.deleteSingleLink(sourceId, a, webUrl, targetId, gone, webUrl);
    const field = (await source.items.getById(a).select('RelatedItems')()).RelatedItems;
    assert.equal(field, null, 'the link to the deleted item is removed all the same');
  });

  it('the wire: SP.RelatedItem in JSON light and verbose; void answers; the link kept in the item\'s field, in place', async () => {
    const a = await add(source, 'Wire source');
    const t = await add(target, 'Wire target');
    const before = await source.items.getById(a).select('Modified', 'OData__UIVersionString', 'EditorId')();
    const link = { SourceListName: sourceId, SourceItemID: a, SourceWebUrl: webUrl, TargetListName: targetId, TargetItemID: t, TargetWebUrl: webUrl, TryAddReverseLink: false };
    assert.deepEqual(await call('AddSingleLink', link), { status: 200, body: { 'odata.null': true } });
    assert.deepEqual(await call('AddSingleLink', link, ACCEPT.verbose), { status: 200, body: { d: { AddSingleLink: null } } });

    const light = await call('GetRelatedItems', { SourceListName: sourceId, SourceItemID: a }, ACCEPT.minimal);
    assert.equal(light.status, 200);
    assert.match(light.body['odata.metadata'], /\$metadata#Collection\(SP\.RelatedItem\)$/);
    assert.deepEqual(Object.keys(light.body.value[0]), ['ListId', 'ItemId', 'Url', 'Title', 'WebId', 'IconUrl']);
    assert.match(light.body.value[0].ListId, GUID);
    const verbose = await call('GetRelatedItems', { SourceListName: sourceId, SourceItemID: a }, ACCEPT.verbose);
    assert.equal(verbose.status, 200);
    const first = verbose.body.d.GetRelatedItems.results[0];
    assert.deepEqual(first.__metadata, { type: 'SP.RelatedItem' });
    assert.equal(first.ItemId, t);

    const after = await source.items.getById(a).select('Modified', 'OData__UIVersionString', 'EditorId', 'RelatedItems')();
    assert.deepEqual(JSON.parse(after.RelatedItems), [{ ItemId: t, WebId: webId, ListId: targetId }], 'SharePoint\'s JSON in the hidden field');
    assert.deepEqual([after.Modified, after.OData__UIVersionString, after.EditorId], [before.Modified, before.OData__UIVersionString, before.EditorId], 'no new version, Modified kept');
    const fields = await source.fields.filter("InternalName eq 'RelatedItems'").select('Hidden', 'TypeAsString', 'Id')();
    assert.deepEqual(fields.map((f: any) => [f.Hidden, f.TypeAsString, f.Id]), [[true, 'Note', 'd2a04afc-9a05-48c8-a7fa-fa98f9496141']]);
  });

  it('links added at once all stay', async () => {
    const a = await add(source, 'Busy source');
    const targets = await Promise.all([1, 2, 3, 4, 5].map((n) => add(target, `Busy ${n}`)));
    const answers = await Promise.all(targets.map((t) => call('AddSingleLink', { SourceListName: sourceId, SourceItemID: a, SourceWebUrl: webUrl, TargetListName: targetId, TargetItemID: t, TargetWebUrl: webUrl })));
    assert.deepEqual(answers.map((x) => x.status), [200, 200, 200, 200, 200]);
    const read = await spemu.sp.web.relatedItems.getRelatedItems(sourceId, a);
    assert.deepEqual(read.map((i) => i.ItemId).sort((x, y) => x - y), [...targets].sort((x, y) => x - y));
  });

  it('a visitor reads links but may not add or remove one; items hidden from the caller are left out', async () => {
    const a = await add(source, 'Guarded source');
    const open = await add(target, 'Open target');
    const closed = await add(target, 'Closed target');
    for (const t of [open, closed]) await spemu.sp.web.relatedItems.addSingleLink(sourceId, a, webUrl, targetId, t, webUrl);
    const visitors = await spemu.sp.web.associatedVisitorGroup();
    await target.items.getById(closed).breakRoleInheritance(true, false);
    await target.items.getById(closed).roleAssignments.remove(visitors.Id, READ);

    const dave = await pnpAsDemoUser(spemu.site, DAVE);
    assert.deepEqual((await dave.web.relatedItems.getRelatedItems(sourceId, a)).map((i) => i.Title), ['Open target']);
    assert.equal((await spemu.sp.web.relatedItems.getRelatedItems(sourceId, a)).length, 2, 'the owner sees both');
    const refused = await failure(dave.web.relatedItems.addSingleLink(sourceId, a, webUrl, targetId, open, webUrl));
    assert.equal(refused.status, 403);
    assert.match(refused.message, /^Access denied/);
    const wire = await call('DeleteSingleLink', { SourceListName: sourceId, SourceItemID: a, SourceWebUrl: webUrl, TargetListName: targetId, TargetItemID: open, TargetWebUrl: webUrl }, ACCEPT.nometadata, DAVE);
    assert.equal(wire.status, 403);
    assert.match(wire.body['odata.error'].message.value, /^Access denied/, 'refused for the item, not for a digest');
    assert.equal((await spemu.sp.web.relatedItems.getRelatedItems(sourceId, a)).length, 2, 'nothing changed');
  });

  it('refusals: a missing item, an unknown list, a list that holds no links, a missing document', async () => {
    const r = spemu.sp.web.relatedItems;
    const a = await add(source, 'Refusing source');
    const missing = await failure(r.addSingleLink(sourceId, a, webUrl, targetId, 987654, webUrl));
    assert.deepEqual(missing, { status: 404, code: '-2130575338, System.ArgumentException', message: 'Item does not exist. It may have been deleted by another user.' });
    assert.equal((await failure(r.getRelatedItems(sourceId, 987654))).status, 404);
    const unknown = await failure(r.addSingleLink('No such list', a, webUrl, targetId, 1, webUrl));
    assert.equal(unknown.status, 404);
    assert.match(unknown.message, /^List 'No such list' does not exist at site with URL/);
    assert.equal((await failure(r.getRelatedItems('00000000-0000-0000-0000-000000000001', 1))).status, 404);

    const { list: plain, data } = await spemu.sp.web.lists.ensure('Plain related list', '', 100);
    const p = await add(plain, 'No field');
    const t = await add(target, 'Refused target');
    const noField = await failure(r.addSingleLink(data.Id, p, webUrl, targetId, t, webUrl));
    assert.deepEqual(noField, { status: 400, code: '-2147024809, System.ArgumentException', message: 'Value does not fall within the expected range.' });
    assert.equal((await failure(r.getRelatedItems(data.Id, p))).status, 400, 'nor are there any to read');
    assert.equal((await failure(r.addSingleLinkToUrl(sourceId, a, `${webUrl}/Shared Documents/nothing-here.txt`))).status, 404);
    const noBody = await call('AddSingleLink', { SourceItemID: a });
    assert.equal(noBody.status, 400);
    assert.deepEqual(await r.getRelatedItems(sourceId, a), [], 'nothing was linked');
  });
});
