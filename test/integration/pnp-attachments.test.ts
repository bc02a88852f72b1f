// List item attachments through an unmodified @pnp/sp 4.x client (issue #11): added, listed,
// read as text and bytes, replaced, deleted and recycled; the item's Attachments flag follows;
// deleting the item takes its attachments with it. Plain fetch checks the wire shape and errors.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/attachments/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-file-types.ts';

const SECRET = 'pnp-attachments-secret-0123456789-abcdef';
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev

describe('PnPjs attachments against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let visitor: SPFI;
  let site: string;

  before(async () => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
    visitor = pnpFor(site, { Authorization: await bearerFor(SECRET, DAVE) });
  });

  it('add, list, getByName, getText/getBuffer, setContent, delete, recycle; the Attachments flag follows', async () => {
    const { list } = await sp.web.lists.ensure('Attachment Tests');
    const { Id: id } = await list.items.add({ Title: 'with files' });
    const item = list.items.getById(id);
    assert.equal((await item.select('Attachments')()).Attachments, false);

    await item.attachmentFiles.add('a.txt', 'Some Content');
    const bytes = randomBytes(70_000);
    await item.attachmentFiles.add('b.bin', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    const all = await item.attachmentFiles();
    assert.deepEqual(all.map((a) => a.FileName), ['a.txt', 'b.bin']);
    const listInfo = await list.select('RootFolder/ServerRelativeUrl').expand('RootFolder')();
    assert.equal(all[0]!.ServerRelativeUrl, `${(listInfo as { RootFolder: { ServerRelativeUrl: string } }).RootFolder.ServerRelativeUrl}/Attachments/${id}/a.txt`);
    assert.equal((await item.select('Attachments')()).Attachments, true);

    assert.equal((await item.attachmentFiles.getByName('A.TXT')()).FileName, 'a.txt', 'names match in any case');
    assert.equal(await item.attachmentFiles.getByName('a.txt').getText(), 'Some Content');
    assert.ok(Buffer.from(await item.attachmentFiles.getByName('b.bin').getBuffer()).equals(bytes));

    await item.attachmentFiles.getByName('a.txt').setContent('Different Content');
    assert.equal(await item.attachmentFiles.getByName('a.txt').getText(), 'Different Content');

    // The name taken: refused, and the content kept.
    const taken = await failure(item.attachmentFiles.add('a.txt', 'again'));
    assert.equal(taken.status, 400);
    assert.equal(await item.attachmentFiles.getByName('a.txt').getText(), 'Different Content');
    // A visitor reads but cannot add.
    assert.equal((await visitor.web.lists.getByTitle('Attachment Tests').items.getById(id).attachmentFiles()).length, 2);
    assert.equal((await failure(visitor.web.lists.getByTitle('Attachment Tests').items.getById(id).attachmentFiles.add('v.txt', 'v'))).status, 403);

    await item.attachmentFiles.getByName('b.bin').delete();
    await item.attachmentFiles.getByName('a.txt').recycle();
    assert.deepEqual(await item.attachmentFiles(), []);
    assert.equal((await item.select('Attachments')()).Attachments, false);
    assert.equal((await failure(item.attachmentFiles.getByName('a.txt')())).status, 404);
  });

  it('deleting the item deletes its attachments; a library has none; a missing item is 404', async () => {
    const { list } = await sp.web.lists.ensure('Attachment Tests 2');
    const { Id: id } = await list.items.add({ Title: 'gone soon' });
    await list.items.getById(id).attachmentFiles.add('x.txt', 'x');
    await list.items.getById(id).delete();
    const { Id: next } = await list.items.add({ Title: 'new' });
    assert.deepEqual(await list.items.getById(next).attachmentFiles(), [], 'nothing carried over');
    assert.equal((await failure(list.items.getById(id).attachmentFiles())).status, 404);

    // A library's items have no attachments (EnableAttachments is false there).
    await fetch(`${site}/_api/web/GetFolderByServerRelativePath(decodedurl='/sites/dev/Shared Documents')/Files/AddUsingPath(decodedurl='att.txt',overwrite=true)`, { method: 'POST', body: 'f' });
    const [doc] = await sp.web.lists.getByTitle('Documents').items.filter("FileLeafRef eq 'att.txt'").select('Id')();
    const r = await fetch(`${site}/_api/web/lists/getbytitle('Documents')/items(${doc!.Id})/AttachmentFiles/add(FileName='n.txt')`, {
      method: 'POST', body: 'n', headers: { Accept: 'application/json;odata=nometadata' },
    });
    assert.equal(r.status, 400);
    assert.equal(((await r.json()) as { 'odata.error': { message: { value: string } } })['odata.error'].message.value, 'Attachments are not enabled for this list.');
  });

  it('the wire: SP.Attachment in verbose, $value bytes with plain fetch, addUsingPath', async () => {
    const { list } = await sp.web.lists.ensure('Attachment Wire');
    const { Id: id } = await list.items.add({ Title: 'wire' });
    const base = `${site}/_api/web/lists/getbytitle('Attachment Wire')/items(${id})/AttachmentFiles`;
    const added = await fetch(`${base}/addUsingPath(DecodedUrl='it''s.txt')`, { method: 'POST', body: 'quoted', headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(added.status, 200);
    const d = ((await added.json()) as { d: Record<string, unknown> }).d;
    assert.equal((d.__metadata as { type: string }).type, 'SP.Attachment');
    assert.equal(d.FileName, "it's.txt");
    assert.deepEqual(d.FileNameAsPath, { __metadata: { type: 'SP.ResourcePath' }, DecodedUrl: "it's.txt" });
    const value = await fetch(`${base}('it''s.txt')/$value`);
    assert.equal(value.status, 200);
    assert.equal(await value.text(), 'quoted');
  });
});
