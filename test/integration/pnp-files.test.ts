// Files and folders through an unmodified @pnp/sp 4.x client (issue #11, first slice):
// folders added by path, files added, listed, read as text and as bytes, given new content;
// what PnPjs gets back is checked against a second path (plain fetch of `$value`, the
// folder's file list). Runs on the leg's database (in-memory SQLite, or PostgreSQL; bytes in
// the database for both: files on disk are covered by blobs.test.ts).

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-file-types.ts';

const SECRET = 'pnp-files-secret-pnp-files-secret-0123456789';
const BOB = 'bob@contoso.onmicrosoft.com'; // a member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev

describe('PnPjs files and folders against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let member: SPFI;
  let visitor: SPFI;
  let site: string;
  const LIB = '/sites/dev/Shared Documents';

  before(async () => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
    member = pnpFor(site, { Authorization: await bearerFor(SECRET, BOB) });
    visitor = pnpFor(site, { Authorization: await bearerFor(SECRET, DAVE) });
  });

  it('folders.addUsingPath, then files.addUsingPath into it; the file reads back as text and as bytes', async () => {
    const folder = await sp.web.getFolderByServerRelativePath(LIB).folders.addUsingPath('Specs');
    assert.equal(folder.Name, 'Specs');
    assert.equal(folder.ServerRelativeUrl, `${LIB}/Specs`);

    const added = await sp.web.getFolderByServerRelativePath(`${LIB}/Specs`).files.addUsingPath('plan.txt', 'the plan', { Overwrite: false });
    assert.equal(added.Name, 'plan.txt');
    assert.equal(added.ServerRelativeUrl, `${LIB}/Specs/plan.txt`);
    assert.equal(added.Length, '8', 'Length is an Edm.Int64: a string');
    assert.equal(added.UIVersionLabel, '1.0');

    const file = sp.web.getFileByServerRelativePath(`${LIB}/Specs/plan.txt`);
    assert.equal(await file.getText(), 'the plan');
    // Second path: the raw bytes with plain fetch.
    const raw = await fetch(`${site}/_api/web/GetFileByServerRelativeUrl('${encodeURIComponent(`${LIB}/Specs/plan.txt`)}')/$value`);
    assert.equal(raw.status, 200);
    assert.equal(await raw.text(), 'the plan');

    // By UniqueId, as PnPjs's getFileById / getFolderById address them.
    assert.equal(await sp.web.getFileById(added.UniqueId).getText(), 'the plan');
    assert.equal((await sp.web.getFolderById(folder.UniqueId)()).ServerRelativeUrl, `${LIB}/Specs`);
    assert.equal((await failure(sp.web.getFileById(folder.UniqueId)())).status, 404, 'a folder is not a file');

    const listed = await sp.web.getFolderByServerRelativePath(`${LIB}/Specs`).files();
    assert.deepEqual(listed.map((f) => f.Name), ['plan.txt']);
    const folders = await sp.web.getFolderByServerRelativePath(LIB).folders();
    assert.ok(folders.some((f) => f.Name === 'Specs' && f.ItemCount === 1));

    // The library's items carry the document fields clients read.
    const items = await sp.web.lists.getByTitle('Documents').items
      .select('Id', 'FileLeafRef', 'FileRef', 'FileDirRef', 'FSObjType', 'FileSystemObjectType', 'File_x0020_Type', 'UniqueId')();
    const plan = items.find((i) => i.FileLeafRef === 'plan.txt');
    const specs = items.find((i) => i.FileLeafRef === 'Specs');
    assert.deepEqual([plan.FileRef, plan.FileDirRef, plan.FSObjType, plan.FileSystemObjectType, plan.File_x0020_Type],
      [`${LIB}/Specs/plan.txt`, `${LIB}/Specs`, '0', 0, 'txt']);
    assert.equal(plan.UniqueId, added.UniqueId);
    assert.deepEqual([specs.FileRef, specs.FileDirRef, specs.FSObjType, specs.FileSystemObjectType, specs.File_x0020_Type],
      [`${LIB}/Specs`, LIB, '1', 1, null]);
  });

  it('binary content round-trips byte for byte; setContent replaces it and the version moves', async () => {
    const bytes = randomBytes(300_000);
    const folder = sp.web.getFolderByServerRelativePath(LIB);
    const added = await folder.files.addUsingPath('blob.bin', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), { Overwrite: true });
    assert.equal(added.Length, String(bytes.length));
    const file = sp.web.getFileByServerRelativePath(`${LIB}/blob.bin`);
    assert.deepEqual(Buffer.from(await file.getBuffer()), bytes);
    await file.setContent('replaced');
    assert.equal(await file.getText(), 'replaced');
    const info = await file();
    assert.equal(info.Length, '8');
    assert.ok(info.MajorVersion >= 1);
  });

  it('adding over an existing file without overwrite fails as SharePoint does; a missing file is 404', async () => {
    const folder = sp.web.getFolderByServerRelativePath(LIB);
    await folder.files.addUsingPath('once.txt', 'first', { Overwrite: false });
    const exists = await failure(folder.files.addUsingPath('ONCE.txt', 'second', { Overwrite: false }));
    assert.equal(exists.status, 400);
    assert.match(exists.code, /^-2130575257, /);
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/once.txt`).getText(), 'first', 'the refused upload changed nothing');
    const missing = await failure(sp.web.getFileByServerRelativePath(`${LIB}/nope.txt`)());
    assert.equal(missing.status, 404);
    assert.equal(missing.code, '-2130575338, Microsoft.SharePoint.SPException');
    assert.equal(missing.message, `The file ${LIB}/nope.txt does not exist.`);
    assert.equal((await failure(sp.web.getFileByServerRelativePath(`${LIB}/nope.txt`).select('Exists')())).status, 404, 'a file probe is a 404 too');
    assert.match(exists.message, /^A file with the name Shared Documents\/ONCE\.txt already exists\./, 'named relative to the web');
    // A folder probed with $select=Exists alone answers, as the CLI's folder add expects.
    const probe = async (path: string) => (await fetch(`${site}/_api/web/GetFolderByServerRelativePath(decodedurl='${encodeURIComponent(path)}')?$select=Exists`,
      { headers: { Accept: 'application/json;odata=nometadata' } }));
    const absent = await probe(`${LIB}/No Such Folder`);
    assert.deepEqual([absent.status, await absent.json()], [200, { Exists: false }]);
    assert.deepEqual(await (await probe(LIB)).json(), { Exists: true });
    assert.equal((await failure(sp.web.getFolderByServerRelativePath(`${LIB}/No Such Folder`)())).status, 404, 'without the probe, a 404');
    // Content approval is off in a default library: SharePoint refuses Approve (pnp-files-surface.test.ts has more).
    const approve = await fetch(`${site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/once.txt`)}')/approve(comment='ok')`,
      { method: 'POST', headers: { Accept: 'application/json;odata=nometadata' } });
    assert.equal(approve.status, 400);
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/once.txt`).getText(), 'first', 'nothing changed');
    const elsewhere = await failure(sp.web.getFileByServerRelativePath('/sites/other/Shared Documents/a.txt')());
    assert.deepEqual([elsewhere.status, elsewhere.code, elsewhere.message],
      [400, '-2147024809, System.ArgumentException', 'Server relative urls must start with SPWeb.ServerRelativeUrl']);
    const badName = await failure(folder.files.addUsingPath('a|b.txt', 'x'));
    assert.equal(badName.status, 400);
  });

  it('listItemAllFields, delete and recycle of a file; a folder deleted with everything in it', async () => {
    const folder = await sp.web.getFolderByServerRelativePath(LIB).folders.addUsingPath('Old');
    assert.equal(folder.Name, 'Old');
    const inOld = sp.web.getFolderByServerRelativePath(`${LIB}/Old`);
    await inOld.folders.addUsingPath('Deeper');
    await sp.web.getFolderByServerRelativePath(`${LIB}/Old/Deeper`).files.addUsingPath('deep.txt', 'deep');
    await inOld.files.addUsingPath('keep.txt', 'kept');
    await inOld.files.addUsingPath('bin.txt', 'to the bin');

    const item = await sp.web.getFileByServerRelativePath(`${LIB}/Old/keep.txt`).listItemAllFields();
    assert.equal(item.FileLeafRef, undefined, 'FileLeafRef appears only when selected');
    assert.equal(typeof item.Id, 'number');
    const selected = await sp.web.getFileByServerRelativePath(`${LIB}/Old/keep.txt`).listItemAllFields.select('FileLeafRef', 'FileDirRef')();
    assert.deepEqual([selected.FileLeafRef, selected.FileDirRef], ['keep.txt', `${LIB}/Old`]);

    await sp.web.getFileByServerRelativePath(`${LIB}/Old/keep.txt`).delete();
    assert.equal((await failure(sp.web.getFileByServerRelativePath(`${LIB}/Old/keep.txt`)())).status, 404);
    const binId = await sp.web.getFileByServerRelativePath(`${LIB}/Old/bin.txt`).recycle();
    assert.match(String(binId), /^[0-9a-f-]{36}$/);
    assert.deepEqual((await inOld.files()).map((f) => f.Name), []);

    await inOld.delete();
    assert.equal((await failure(sp.web.getFolderByServerRelativePath(`${LIB}/Old`)())).status, 404);
    assert.equal((await failure(sp.web.getFileByServerRelativePath(`${LIB}/Old/Deeper/deep.txt`)())).status, 404);
    const left = await sp.web.lists.getByTitle('Documents').items.select('FileRef')();
    assert.ok(!left.some((i) => String(i.FileRef).startsWith(`${LIB}/Old`)), 'nothing of the folder is left');
  });

  it('addChunked: a 30 MB file in 10 MB chunks and a small one arrive byte for byte', async () => {
    const folder = sp.web.getFolderByServerRelativePath(LIB);
    const big = randomBytes(30 * 1024 * 1024 + 4321);
    const stages: string[] = [];
    const info = await folder.files.addChunked('big.bin', new Blob([big]), { progress: (p) => { stages.push(p.stage); } });
    assert.equal(info.Length, String(big.length));
    assert.deepEqual(stages, ['starting', 'continue', 'continue', 'finishing']);
    assert.deepEqual(Buffer.from(await sp.web.getFileByServerRelativePath(`${LIB}/big.bin`).getBuffer()), big);
    const small = await folder.files.addChunked('small.txt', new Blob(['tiny']));
    assert.equal(small.Length, '4');
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/small.txt`).getText(), 'tiny');
  });

  it('chunked upload as the CLI sends it: GetByPathOrAddStub, offsets checked, cancel keeps the content, a GET makes nothing', async () => {
    const api = `${site}/_api/web/GetFolderByServerRelativePath(decodedurl='${encodeURIComponent(LIB)}')`;
    const post = (path: string, body?: string) => fetch(`${api}/${path}`, { method: 'POST', headers: { Accept: 'application/json;odata=nometadata' }, body });
    const id = 'a0b1c2d3-0000-4000-8000-00000000c11a';

    assert.equal((await fetch(`${api}/files/GetByPathOrAddStub(DecodedUrl='stub.txt')`, { headers: { Accept: 'application/json' } })).status, 404);
    assert.equal((await failure(sp.web.getFileByServerRelativePath(`${LIB}/stub.txt`)())).status, 404, 'a GET of the stub made no file');

    const started = await post(`files/GetByPathOrAddStub(DecodedUrl='stub.txt')/StartUpload(uploadId=guid'${id}')`, 'hello ');
    assert.equal(started.status, 200);
    assert.deepEqual(await started.json(), { value: '6' }, 'the offset is an Edm.Int64: a string');
    const wrong = await post(`Files('stub.txt')/ContinueUpload(uploadId=guid'${id}',fileOffset=5)`, 'x');
    assert.equal(wrong.status, 400);
    const next = await post(`Files('stub.txt')/ContinueUpload(uploadId=guid'${id}',fileOffset=6)`, 'chunked ');
    assert.deepEqual(await next.json(), { value: '14' });
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/stub.txt`).getText(), '', 'the content changes only when the upload finishes');
    const finished = await post(`Files('stub.txt')/FinishUpload(uploadId=guid'${id}',fileOffset=14)`, 'world');
    assert.equal(finished.status, 200);
    assert.equal(((await finished.json()) as { Length: string }).Length, '19');
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/stub.txt`).getText(), 'hello chunked world');

    const again = 'a0b1c2d3-0000-4000-8000-00000000c11b';
    await post(`Files('stub.txt')/StartUpload(uploadId=guid'${again}')`, 'discarded');
    assert.equal((await post(`Files('stub.txt')/CancelUpload(uploadId=guid'${again}')`)).status, 200);
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/stub.txt`).getText(), 'hello chunked world');
    assert.equal((await post(`Files('stub.txt')/ContinueUpload(uploadId=guid'${again}',fileOffset=9)`, 'x')).status, 404, 'a cancelled upload is gone');
  });

  it('check-out: only the holder changes the file; check-in records its comment; undo ends the hold; visitors only read', async () => {
    const folder = sp.web.getFolderByServerRelativePath(LIB);
    await folder.files.addUsingPath('held.txt', 'v1', { Overwrite: true });
    const file = sp.web.getFileByServerRelativePath(`${LIB}/held.txt`);
    const asBob = member.web.getFileByServerRelativePath(`${LIB}/held.txt`);
    const checkout = await fetch(`${site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/held.txt`)}')/CheckOut()`,
      { method: 'POST', headers: { Accept: 'application/json;odata=nometadata' } });
    assert.deepEqual([checkout.status, await checkout.json()], [200, { 'odata.null': true }], 'a void action answers as SharePoint does');
    assert.equal((await file()).CheckOutType, 0, 'checked out (Online)');
    const locked = await failure(asBob.setContent('bob was here'));
    assert.equal(locked.status, 423);
    assert.equal(locked.code, '-2130575306, Microsoft.SharePoint.SPFileCheckOutException');
    assert.match(locked.message, /^The file "\/sites\/dev\/Shared Documents\/held\.txt" is checked out for editing by /);
    assert.equal((await failure(asBob.delete())).status, 423);
    assert.equal((await failure(asBob.checkin('not mine'))).status, 423);
    await file.setContent('v2 by the holder');
    await file.checkin('reviewed');
    const checkedIn = await file();
    assert.deepEqual([checkedIn.CheckOutType, checkedIn.CheckInComment], [2, 'reviewed']);
    await asBob.setContent('bob now');
    assert.equal(await file.getText(), 'bob now');
    await asBob.checkout();
    await asBob.undoCheckout();
    assert.equal((await file()).CheckOutType, 2);
    assert.equal((await failure(file.undoCheckout())).status, 400, 'nothing to undo');
    assert.equal(await visitor.web.getFileByServerRelativePath(`${LIB}/held.txt`).getText(), 'bob now');
    assert.equal((await failure(visitor.web.getFileByServerRelativePath(`${LIB}/held.txt`).setContent('no'))).status, 403);
    assert.equal((await failure(visitor.web.getFolderByServerRelativePath(LIB).files.addUsingPath('v.txt', 'no'))).status, 403);
  });

  it('file versions in a versioned library: listed with their labels and sizes, each version\'s content readable, one deleted by id', async () => {
    await sp.web.lists.add('Kept Docs', '', 101, false, { EnableVersioning: true });
    const lib = '/sites/dev/Kept Docs';
    const folder = sp.web.getFolderByServerRelativePath(lib);
    await folder.files.addUsingPath('history.txt', 'one', { Overwrite: true });
    const file = sp.web.getFileByServerRelativePath(`${lib}/history.txt`);
    await file.setContent('two!');
    await file.setContent('three');
    const versions = await file.versions();
    assert.deepEqual(versions.map((v) => [v.VersionLabel, v.ID, v.Size, v.IsCurrentVersion]).sort(), [['1.0', 512, 3, false], ['2.0', 1024, 4, false]]);
    assert.ok(versions.every((v) => String(v.Url).startsWith('_vti_history/') && String(v.Url).endsWith('Kept Docs/history.txt')));
    const first = await fetch(`${site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${lib}/history.txt`)}')/versions(512)/$value`);
    assert.equal(await first.text(), 'one');
    assert.equal((await file()).UIVersionLabel, '3.0');
    const put = await fetch(`${site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${lib}/history.txt`)}')/versions(512)/$value`,
      { method: 'POST', headers: { 'X-HTTP-Method': 'PUT', Accept: 'application/json' }, body: 'rewrite history' });
    assert.equal(put.status, 405, 'a past version cannot be written');
    assert.equal(await file.getText(), 'three');
    await file.versions.deleteById(512);
    assert.deepEqual((await file.versions()).map((v) => v.VersionLabel), ['2.0']);
    assert.equal(await file.getText(), 'three', 'the current content is untouched');
  });
});

describe('a file sent in one request may be larger than the server body limit, up to SharePoint\'s 250 MiB', () => {
  // The body limit is for bodies read whole; an upload streams into a blob, so only the
  // direct-upload limit holds (services/documents.ts). A 1 KiB limit stands in for the 50 MiB default.
  const spemu = useTestServer({ bodyLimit: 1024 });
  const LIB = '/sites/dev/Shared Documents';

  it('AddUsingPath and a $value PUT over the body limit arrive whole; a JSON body over it is still refused', async () => {
    const site = spemu.server.site('/sites/dev');
    const sp = pnpFor(site);
    const bytes = randomBytes(64 * 1024);
    const added = await sp.web.getFolderByServerRelativePath(LIB).files.addUsingPath('over-limit.bin', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), { Overwrite: true });
    assert.equal(added.Length, String(bytes.length));
    const file = sp.web.getFileByServerRelativePath(`${LIB}/over-limit.bin`);
    assert.deepEqual(Buffer.from(await file.getBuffer()), bytes);
    await file.setContent('x'.repeat(4096));
    assert.equal((await file()).Length, '4096');
    const json = await fetch(`${site}/_api/web/lists/getbytitle('Documents')/items`, {
      method: 'POST', headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'x'.repeat(2048) }),
    });
    assert.equal(json.status, 413);
  });

  it('a declared Content-Length over 250 MiB is refused before a byte is read', async () => {
    const url = new URL(`${spemu.server.site('/sites/dev')}/_api/web/GetFolderByServerRelativePath(decodedurl='${encodeURIComponent(LIB)}')/Files/AddUsingPath(decodedurl='huge.bin',overwrite=true)`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { Accept: 'application/json', 'Content-Length': String(250 * 1024 * 1024 + 1) } }, (res) => {
        res.resume();
        req.destroy(); // the 250 MiB it announced will never come
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    assert.equal(status, 413);
  });
});
