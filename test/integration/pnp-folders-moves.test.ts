// Folders and moves through an unmodified @pnp/sp 4.x client (issue #11): the web's own
// folders above its libraries, sub folders, rename, storage metrics, recycle and delete with
// parameters; files and folders moved and copied by path (SP.MoveCopyUtil), by the older
// copyTo/moveTo, across libraries, with overwrite and KeepBoth. Each result is checked on a
// second path: the bytes with plain fetch, the library's items, the folder listings.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { failure } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-file-types.ts';

const LIB = '/sites/dev/Shared Documents';
const ASSETS = '/sites/dev/SiteAssets';

describe('PnPjs folders, moves and copies against spemu', () => {
  const spemu = usePnpSite();

  /** The bytes at a server-relative URL, read with plain fetch (undefined: 404). */
  async function bytesAt(url: string): Promise<string | undefined> {
    const r = await fetch(`${spemu.site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(url.replace(/'/g, "''"))}')/$value`);
    if (r.status === 404) return undefined;
    assert.equal(r.status, 200);
    return r.text();
  }
  const names = async (url: string, what: 'files' | 'folders') =>
    (await spemu.sp.web.getFolderByServerRelativePath(url)[what]()).map((f) => f.Name).sort();

  it("the web's root folder holds its libraries' root folders; Site Assets and Site Pages exist", async () => {
    const root = await spemu.sp.web.rootFolder();
    assert.equal(root.ServerRelativeUrl, '/sites/dev');
    const top = (await spemu.sp.web.rootFolder.folders()).map((f) => f.Name);
    for (const name of ['Shared Documents', 'SiteAssets', 'SitePages', 'Lists']) assert.ok(top.includes(name), `${name} in ${top.join(', ')}`);
    const assets = await spemu.sp.web.rootFolder.folders.getByUrl('SiteAssets')();
    assert.equal(assets.ServerRelativeUrl, ASSETS);
    assert.equal((await spemu.sp.web.folders.getByUrl('SitePages')()).ServerRelativeUrl, '/sites/dev/SitePages');
    // Lists/… is a folder of the web too, with the lists' root folders below it.
    const lists = (await spemu.sp.web.getFolderByServerRelativePath('/sites/dev/Lists').folders()).map((f) => f.Name);
    assert.ok(lists.length > 0);
    // The web's root folder is found again by its UniqueId, and a library's root folder by the list's id.
    assert.equal((await spemu.sp.web.getFolderById(root.UniqueId)()).ServerRelativeUrl, '/sites/dev');
    const docs = await spemu.sp.web.lists.getByTitle('Documents').select('Id')();
    assert.equal((await spemu.sp.web.getFolderById(docs.Id)()).ServerRelativeUrl, LIB);
    // Parent folders: a library's root folder's parent is the web's.
    assert.equal((await spemu.sp.web.getFolderByServerRelativePath(ASSETS).parentFolder()).ServerRelativeUrl, '/sites/dev');
    // A library's root folder has no item: PnPjs's getItem says so.
    await assert.rejects(spemu.sp.web.getFolderByServerRelativePath(ASSETS).getItem(), /No associated item/);
  });

  it('addSubFolderUsingPath, rename by update, storage metrics and properties', async () => {
    const assets = spemu.sp.web.rootFolder.folders.getByUrl('SiteAssets');
    await assets.folders.addUsingPath('Brand');
    await assets.folders.getByUrl('Brand').addSubFolderUsingPath('Logos');
    assert.deepEqual(await names(`${ASSETS}/Brand`, 'folders'), ['Logos']);
    await spemu.sp.web.getFolderByServerRelativePath(`${ASSETS}/Brand/Logos`).files.addUsingPath('a.svg', '<svg/>');
    await spemu.sp.web.getFolderByServerRelativePath(`${ASSETS}/Brand`).files.addUsingPath('b.txt', '12345');

    const metrics = await spemu.sp.web.getFolderByServerRelativePath(`${ASSETS}/Brand`).storageMetrics();
    assert.equal(Number(metrics.TotalFileCount), 2);
    assert.equal(Number(metrics.TotalSize), 6 + 5);
    assert.ok(await spemu.sp.web.getFolderByServerRelativePath(`${ASSETS}/Brand`).properties());

    // Renaming the folder carries what it holds.
    await spemu.sp.web.getFolderByServerRelativePath(`${ASSETS}/Brand`).update({ Name: 'Identity' });
    assert.equal(await bytesAt(`${ASSETS}/Identity/Logos/a.svg`), '<svg/>');
    assert.equal(await bytesAt(`${ASSETS}/Brand/Logos/a.svg`), undefined);
    const items = await spemu.sp.web.lists.getByTitle('Site Assets').items.select('FileRef', 'FileDirRef')();
    assert.ok(items.some((i) => i.FileRef === `${ASSETS}/Identity/Logos/a.svg` && i.FileDirRef === `${ASSETS}/Identity/Logos`));
    assert.ok(!items.some((i) => String(i.FileRef).includes('/Brand')), 'no item keeps the old path');
    // Renaming a library's root folder to its own name changes nothing (PnPjs's upstream "update").
    await spemu.sp.web.rootFolder.folders.getByUrl('SiteAssets').update({ Name: 'SiteAssets' });
  });

  it('files: copyByPath, moveByPath (overwrite and KeepBoth), copyTo and moveTo', async () => {
    const docs = spemu.sp.web.getFolderByServerRelativePath(LIB);
    await docs.folders.addUsingPath('Moves');
    await docs.files.addUsingPath('Moves/src.txt', 'source');
    const src = spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/src.txt`);

    await src.copyByPath(`${LIB}/Moves/copy.txt`, false);
    assert.equal(await bytesAt(`${LIB}/Moves/copy.txt`), 'source');
    assert.equal(await bytesAt(`${LIB}/Moves/src.txt`), 'source', 'a copy leaves the source');

    // The name taken: refused without overwrite, replaced with it, a free name with KeepBoth.
    await docs.files.addUsingPath('Moves/other.txt', 'other');
    const refused = await failure(spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/other.txt`).copyByPath(`${LIB}/Moves/copy.txt`, false));
    assert.equal(refused.status, 400);
    assert.match(refused.code, /^-2130575257,/);
    await spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/other.txt`).copyByPath(`${LIB}/Moves/copy.txt`, false, true);
    assert.equal(await bytesAt(`${LIB}/Moves/copy 1.txt`), 'other', 'KeepBoth picks a free name');
    await spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/other.txt`).copyByPath(`${LIB}/Moves/copy.txt`, true);
    assert.equal(await bytesAt(`${LIB}/Moves/copy.txt`), 'other', 'overwrite replaces the content');

    // A move keeps the file's identity and leaves nothing behind.
    const before = await src.select('UniqueId')();
    const moved = await src.moveByPath(`${ASSETS}/moved.txt`, false);
    assert.equal(await bytesAt(`${ASSETS}/moved.txt`), 'source');
    assert.equal(await bytesAt(`${LIB}/Moves/src.txt`), undefined);
    assert.equal((await moved.select('UniqueId')()).UniqueId, before.UniqueId, 'a moved file keeps its UniqueId');

    // The older verbs.
    await spemu.sp.web.getFileByServerRelativePath(`${ASSETS}/moved.txt`).copyTo(`${LIB}/Moves/copied-to.txt`, false);
    assert.equal(await bytesAt(`${LIB}/Moves/copied-to.txt`), 'source');
    await spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/copied-to.txt`).moveByPath(`${LIB}/Moves/final.txt`, false);
    assert.deepEqual(await names(`${LIB}/Moves`, 'files'), ['copy 1.txt', 'copy.txt', 'final.txt', 'other.txt']);
    // A missing destination folder is SharePoint's 404; a missing source too.
    assert.equal((await failure(spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/final.txt`).moveByPath(`${LIB}/Nowhere/x.txt`, false))).status, 404);
    assert.equal((await failure(spemu.sp.web.getFileByServerRelativePath(`${LIB}/Moves/none.txt`).copyByPath(`${LIB}/Moves/y.txt`, false))).status, 404);
  });

  it('folders: copyByPath and moveByPath carry everything below; a folder cannot go into itself', async () => {
    const docs = spemu.sp.web.getFolderByServerRelativePath(LIB);
    await docs.folders.addUsingPath('Tree');
    await docs.folders.addUsingPath('Tree/Sub');
    await docs.files.addUsingPath('Tree/top.txt', 'top');
    await docs.files.addUsingPath('Tree/Sub/deep.txt', 'deep');

    await spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Tree`).copyByPath(`${LIB}/Tree copy`);
    assert.equal(await bytesAt(`${LIB}/Tree copy/Sub/deep.txt`), 'deep');
    assert.equal(await bytesAt(`${LIB}/Tree/Sub/deep.txt`), 'deep');

    const inside = await failure(spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Tree`).moveByPath(`${LIB}/Tree/Sub/Tree`));
    assert.equal(inside.status, 400);

    // Into another library: new rows there, none left here.
    await spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Tree`).moveByPath(`${ASSETS}/Tree`);
    assert.equal(await bytesAt(`${ASSETS}/Tree/Sub/deep.txt`), 'deep');
    assert.equal(await bytesAt(`${ASSETS}/Tree/top.txt`), 'top');
    assert.equal(await bytesAt(`${LIB}/Tree/top.txt`), undefined);
    const left = await spemu.sp.web.lists.getByTitle('Documents').items.select('FileRef')();
    assert.ok(!left.some((i) => String(i.FileRef).startsWith(`${LIB}/Tree/`) || i.FileRef === `${LIB}/Tree`));
    const there = await spemu.sp.web.lists.getByTitle('Site Assets').items.select('FileRef', 'FileDirRef')();
    assert.ok(there.some((i) => i.FileRef === `${ASSETS}/Tree/Sub/deep.txt` && i.FileDirRef === `${ASSETS}/Tree/Sub`));
  });

  it('recycle and deleteWithParams: a folder with content goes to the recycle bin whole; DeleteIfEmpty refuses a full one', async () => {
    const docs = spemu.sp.web.getFolderByServerRelativePath(LIB);
    await docs.folders.addUsingPath('Bin');
    await docs.files.addUsingPath('Bin/x.txt', 'x');
    const id = await spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Bin`).recycle();
    assert.match(String(id), /^[0-9a-f-]{36}$/);
    assert.equal(await bytesAt(`${LIB}/Bin/x.txt`), undefined);
    assert.ok(!(await names(LIB, 'folders')).includes('Bin'));

    await docs.folders.addUsingPath('Full');
    await docs.files.addUsingPath('Full/y.txt', 'y');
    const refused = await failure(spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Full`).deleteWithParams({ DeleteIfEmpty: true }));
    assert.equal(refused.status, 400);
    assert.equal(await bytesAt(`${LIB}/Full/y.txt`), 'y', 'nothing was deleted');
    await spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Full`).deleteWithParams({ BypassSharedLock: true });
    assert.equal(await bytesAt(`${LIB}/Full/y.txt`), undefined);
  });

  it('web.folders.addUsingPath and POST web/folders make folders by server-relative URL; items(n)/File and /Folder', async () => {
    await spemu.sp.web.folders.addUsingPath(`${LIB}/ByWeb`);
    const created = await fetch(`${spemu.site}/_api/web/folders`, {
      method: 'POST', headers: { 'Content-Type': 'application/json;odata=verbose', Accept: 'application/json;odata=verbose' },
      body: JSON.stringify({ __metadata: { type: 'SP.Folder' }, ServerRelativeUrl: `${LIB}/ByPost` }),
    });
    assert.equal(created.status, 201);
    assert.equal(((await created.json()) as { d: { ServerRelativeUrl: string } }).d.ServerRelativeUrl, `${LIB}/ByPost`);
    assert.ok((await names(LIB, 'folders')).includes('ByWeb'));

    await spemu.sp.web.getFolderByServerRelativePath(`${LIB}/ByWeb`).files.addUsingPath('f.txt', 'f');
    const items = await spemu.sp.web.lists.getByTitle('Documents').items.select('Id', 'FileRef')();
    const file = items.find((i) => i.FileRef === `${LIB}/ByWeb/f.txt`);
    const folder = items.find((i) => i.FileRef === `${LIB}/ByWeb`);
    assert.equal(await spemu.sp.web.lists.getByTitle('Documents').items.getById(file.Id).file.getText(), 'f');
    assert.equal((await spemu.sp.web.lists.getByTitle('Documents').items.getById(folder.Id).folder()).Name, 'ByWeb');
    assert.equal((await failure(spemu.sp.web.lists.getByTitle('Documents').items.getById(folder.Id).file())).status, 404);
  });

  it('$filter on FileDirRef, FileLeafRef, FSObjType and FileRef runs in SQL', async () => {
    const docs = spemu.sp.web.getFolderByServerRelativePath(LIB);
    await docs.folders.addUsingPath('Filter');
    await docs.folders.addUsingPath('Filter/Inner');
    await docs.files.addUsingPath('Filter/one.txt', '1');
    await docs.files.addUsingPath('Filter/Inner/two.txt', '2');
    const items = spemu.sp.web.lists.getByTitle('Documents').items;
    const leaves = async (filter: string) => (await items.filter(filter).select('FileLeafRef')()).map((i) => i.FileLeafRef).sort();
    assert.deepEqual(await leaves(`FileDirRef eq '${LIB}/Filter'`), ['Inner', 'one.txt']);
    assert.deepEqual(await leaves(`FileDirRef eq '${LIB.toUpperCase()}/filter' and FSObjType eq 0`), ['one.txt'], 'any case; files only');
    assert.deepEqual(await leaves(`startswith(FileDirRef, '${LIB}/Filter') and FSObjType eq '0'`), ['one.txt', 'two.txt']);
    assert.deepEqual(await leaves(`FileLeafRef eq 'TWO.txt'`), ['two.txt']);
    assert.deepEqual(await leaves(`FileRef eq '${LIB}/Filter/Inner/two.txt'`), ['two.txt']);
    assert.deepEqual(await leaves(`FileDirRef eq '/sites/dev/SiteAssets/Filter'`), [], 'another library\'s URL matches nothing here');
  });

  it('getLockedByUser is null (spemu keeps no co-authoring locks); CheckedOutByUser names the holder; $select may name odata.id', async () => {
    await spemu.sp.web.getFolderByServerRelativePath(LIB).files.addUsingPath('locks.txt', 'l');
    const file = spemu.sp.web.getFileByServerRelativePath(`${LIB}/locks.txt`);
    assert.equal(await file.getLockedByUser(), null);
    const holder = async () => (await (await fetch(`${spemu.site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/locks.txt`)}')/CheckedOutByUser`,
      { headers: { Accept: 'application/json;odata=nometadata' } })).json()) as Record<string, unknown>;
    assert.deepEqual(await holder(), { 'odata.null': true });
    await file.checkout();
    assert.equal((await holder()).UserPrincipalName, 'alice@contoso.onmicrosoft.com');
    await file.undoCheckout();
    await spemu.sp.web.getFolderByServerRelativePath(LIB).folders.addUsingPath('Annotated');
    const item = await spemu.sp.web.getFolderByServerRelativePath(`${LIB}/Annotated`).listItemAllFields.select('odata.id', 'Id')();
    assert.equal(typeof item.Id, 'number');
  });

  it('versions: restoreByLabel brings an old content back as a new version; deleteByLabel and deleteAll drop past ones', async () => {
    const docs = spemu.sp.web.getFolderByServerRelativePath(LIB);
    await docs.files.addUsingPath('versioned.txt', 'one');
    const file = spemu.sp.web.getFileByServerRelativePath(`${LIB}/versioned.txt`);
    await file.setContent('two');
    await file.setContent('three');
    assert.deepEqual((await file.versions()).map((v) => v.VersionLabel).sort(), ['1.0', '2.0']);

    await file.versions.restoreByLabel('1.0');
    assert.equal(await bytesAt(`${LIB}/versioned.txt`), 'one');
    assert.equal((await file.select('UIVersionLabel')()).UIVersionLabel, '4.0', 'the restore is a new version');
    assert.deepEqual((await file.versions()).map((v) => v.VersionLabel).sort(), ['1.0', '2.0', '3.0']);

    await file.versions.deleteByLabel('2.0');
    assert.deepEqual((await file.versions()).map((v) => v.VersionLabel).sort(), ['1.0', '3.0']);
    assert.equal((await failure(file.versions.restoreByLabel('2.0'))).status, 404);
    await file.versions.deleteAll();
    assert.deepEqual(await file.versions(), []);
    assert.equal(await bytesAt(`${LIB}/versioned.txt`), 'one', 'the current content stays');
  });

  it('the wire: bodies that are no object, malformed escapes and web-relative destinations get answers, never a 500', async () => {
    await spemu.sp.web.getFolderByServerRelativePath(LIB).folders.addUsingPath('Wire');
    await spemu.sp.web.getFolderByServerRelativePath(LIB).files.addUsingPath('Wire/w.txt', 'w');
    const post = (path: string, body?: string) => fetch(`${spemu.site}/_api/${path}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json;odata=nometadata' }, ...(body === undefined ? {} : { body }),
    });
    const folder = `web/GetFolderByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/Wire`)}')`;
    for (const body of ['null', '[]', '"x"']) {
      const r = await post(`${folder}/AddSubFolderUsingPath`, body);
      assert.equal(r.status, 400, body);
    }
    assert.equal((await post(`${folder}/AddSubFolderUsingPath`)).status, 400, 'no body');
    const util = await post('SP.MoveCopyUtil.CopyFileByPath(overwrite=@a1)?@a1=false', JSON.stringify({
      srcPath: { DecodedUrl: `${spemu.server.url}/sites/dev/Shared%20Documents/Wire/w.txt` },
      destPath: { DecodedUrl: `${spemu.server.url}/sites/dev/Shared%20Documents/Wire/100%25%zz.txt` },
    }));
    assert.equal(util.status, 200, 'a % that is no escape is part of the name');
    assert.equal(await bytesAt(`${LIB}/Wire/100%%zz.txt`), 'w');
    // A destination relative to the web (as File.moveTo takes it) stays in the site.
    const moved = await post(`web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/Wire/w.txt`)}')/moveTo(newurl='Shared Documents/Wire/moved.txt',flags=1)`);
    assert.equal(moved.status, 200);
    assert.equal(await bytesAt(`${LIB}/Wire/moved.txt`), 'w');
    const elsewhere = await post('SP.MoveCopyUtil.CopyFileByPath(overwrite=@a1)?@a1=false', JSON.stringify({
      srcPath: { DecodedUrl: `${LIB}/Wire/moved.txt` }, destPath: { DecodedUrl: '/sites/other/Shared Documents/x.txt' },
    }));
    assert.equal(elsewhere.status, 501);
  });
});
