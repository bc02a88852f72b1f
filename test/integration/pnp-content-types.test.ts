// Content types through an unmodified @pnp/sp 4.x client (issue #14): the built-in types a
// web offers, a site content type added with SharePoint's id scheme, updated and deleted
// (not while a list uses it), its field links, fields and parent; a list's own types (its
// template's and Folder), one bound with addAvailableContentType, an item's ContentType and
// a folder's ContentTypeOrder; and the refusals.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/content-types/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-content-type-types.ts';
import '../helpers/pnp-file-types.ts';

describe('PnPjs content types against spemu', () => {
  const spemu = usePnpSite();

  it('a web offers the built-in types; getById and parent follow the id scheme', async () => {
    const types = await spemu.sp.web.contentTypes();
    const names = new Map(types.map((t) => [t.StringId, t.Name]));
    assert.equal(names.get('0x01'), 'Item');
    assert.equal(names.get('0x0101'), 'Document');
    assert.equal(names.get('0x0120'), 'Folder');
    const item = await spemu.sp.web.contentTypes.getById('0x01')();
    assert.deepEqual([item.Name, item.Id.StringValue, item.Group], ['Item', '0x01', 'List Content Types']);
    assert.equal((await spemu.sp.web.contentTypes.getById('0x0101').parent()).Name, 'Item');
    const links = await spemu.sp.web.contentTypes.getById('0x0101').fieldLinks();
    assert.deepEqual(links.map((l: any) => l.Name), ['FileLeafRef', 'Title']);
  });

  it('a site content type: added as PnPjs adds it (its Id ignored, as SharePoint does), read, updated, its links and fields inherited, deleted', async () => {
    const asked = '0x01008D19F38845B0884EBEBE239FDF359184';
    const added = await spemu.sp.web.contentTypes.add(asked, 'Project', 'A project', 'Projects');
    const id = added.data.Id!.StringValue;
    assert.match(id, /^0x0100[0-9A-F]{32}$/, 'a child of Item with a new GUID');
    assert.notEqual(id, asked);
    assert.equal((await spemu.sp.web.contentTypes.add(asked, 'Project two')).data.Name, 'Project two', 'the same Id again makes another type');
    const ct = spemu.sp.web.contentTypes.getById(id);
    assert.deepEqual([(await ct()).Name, (await ct()).Group, (await ct()).Description], ['Project', 'Projects', 'A project']);
    assert.equal((await ct.parent()).Name, 'Item');
    assert.deepEqual((await ct.fieldLinks()).map((l: any) => l.Name), ['Title'], 'it links what its parent links');
    assert.deepEqual((await ct.fields()).map((f: any) => f.InternalName), ['Title']);
    assert.deepEqual(await ct.workflowAssociations(), []);
    await ct.update({ Name: 'Project updated' });
    assert.equal((await ct()).Name, 'Project updated');

    assert.equal((await failure(spemu.sp.web.contentTypes.add('0x0199', 'Item'))).status, 500, 'a name the web has');
    assert.equal((await failure(spemu.sp.web.contentTypes.add('nonsense', 'X'))).status, 400);
    assert.equal((await failure(spemu.sp.web.contentTypes.getById('0x01').update({ Name: 'Thing' }))).status, 400, 'built-in types are not spemu\'s to change');

    // A list holding a copy keeps the site type from being deleted.
    const { list } = await spemu.sp.web.lists.ensure('CT list', '', 100);
    const bound = await list.contentTypes.addAvailableContentType(id);
    assert.match(bound.data.StringId!, new RegExp(`^${id}00[0-9A-F]{32}$`));
    assert.equal((await failure(ct.delete())).status, 500);
    await list.contentTypes.getById(bound.data.StringId!).delete();
    await ct.delete();
    assert.equal((await failure(ct())).status, 404);
  });

  it('a list has its template\'s type and Folder; addAvailableContentType binds a copy; items and folders say theirs', async () => {
    const { list } = await spemu.sp.web.lists.ensure('CT library', '', 101);
    const info = await list.select('Id')();
    const types = await list.contentTypes();
    const hex = info.Id.replace(/-/g, '').toUpperCase();
    assert.deepEqual(types.map((t) => [t.Name, t.StringId]), [['Document', `0x010100${hex}`], ['Folder', `0x012000${hex}`]]);

    const picture = await list.contentTypes.addAvailableContentType('0x010102');
    assert.equal(picture.data.Name, 'Picture');
    assert.deepEqual((await list.contentTypes()).map((t) => t.Name), ['Document', 'Folder', 'Picture']);
    assert.equal((await failure(list.contentTypes.addAvailableContentType('0x010102'))).status, 500, 'one Picture per list');
    assert.equal((await failure(list.contentTypes.addAvailableContentType('0x0199'))).status, 404);

    await spemu.sp.web.getFolderByServerRelativePath('/sites/dev/CT library').files.addUsingPath('a.txt', 'a');
    const item = await spemu.sp.web.getFileByServerRelativePath('/sites/dev/CT library/a.txt').listItemAllFields.select('Id', 'ContentTypeId')();
    const ofItem = await list.items.getById(item.Id).contentType();
    assert.deepEqual([ofItem.Name, ofItem.StringId], ['Document', item.ContentTypeId]);

    const order = await spemu.sp.web.getFolderByServerRelativePath('/sites/dev/CT library').select('ContentTypeOrder', 'UniqueContentTypeOrder')();
    assert.deepEqual(order.ContentTypeOrder.map((c: any) => c.StringValue), [`0x010100${hex}`, picture.data.StringId]);
    assert.equal(order.UniqueContentTypeOrder, null);
  });

  it('a subweb offers its parent\'s types too; a list type\'s fields are the list\'s', async () => {
    await spemu.sp.web.webs.add('CT sub', 'ct-sub');
    await spemu.sp.web.contentTypes.add('0x01', 'Parent only');
    const sub = pnpFor(`${spemu.site}/ct-sub`);
    const names = (await sub.web.contentTypes()).map((t) => t.Name);
    assert.ok(names.includes('Parent only') && names.includes('Item'));
    const tasks = await spemu.sp.web.lists.getByTitle('Tasks').contentTypes();
    const fields = await spemu.sp.web.lists.getByTitle('Tasks').contentTypes.getById(tasks[0]!.StringId).fields();
    assert.deepEqual(fields.map((f: any) => f.InternalName), ['Title']);
    assert.equal(fields[0].TypeAsString, 'Text', 'a list type\'s fields are the list\'s own SP.Field entries');
  });
});
