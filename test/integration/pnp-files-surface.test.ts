// The rest of a file's REST surface through an unmodified @pnp/sp 4.x client (issue #11):
// publishing and content approval in a default library (refused, as SharePoint refuses them),
// a file's property bag, versions recycled by id and label, pages made from a template, the
// EncodedAbsUrl of an item, Site Pages' Home.aspx, the 400-character path limit, and the
// stream and exists probes. Each result is checked on a second path (plain fetch, the file's
// versions or bytes, the library's items) and every refusal leaves nothing written.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SPInstance, type SPFI } from '@pnp/sp';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { TemplateFileType } from '@pnp/sp/files/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-file-types.ts';

const SECRET = 'pnp-files-surface-secret-0123456789abcdef';
const BOB = 'bob@contoso.onmicrosoft.com'; // a member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev
const LIB = '/sites/dev/Shared Documents';
const PAGES = '/sites/dev/SitePages';
const SP_EXCEPTION = '-2146232832, Microsoft.SharePoint.SPException';
const TOO_LONG = '-2147024690, System.IO.PathTooLongException';
const TOO_LONG_TEXT = 'The specified file or folder name is too long. The URL path for all files and folders must be 400 characters or less'
  + ' (and no more than 255 characters for any single file or folder name in the URL). Please type a shorter file or folder name.';

describe('PnPjs: the rest of the file surface against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let member: SPFI;
  let visitor: SPFI;
  let site: string;

  before(async () => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
    member = pnpFor(site, { Authorization: await bearerFor(SECRET, BOB) });
    visitor = pnpFor(site, { Authorization: await bearerFor(SECRET, DAVE) });
  });

  const add = (name: string, content: string | ArrayBuffer, folder = LIB) =>
    sp.web.getFolderByServerRelativePath(folder).files.addUsingPath(name, content, { Overwrite: true });
  const fileNames = async (folder: string) => (await sp.web.getFolderByServerRelativePath(folder).files()).map((f) => f.Name).sort();

  it('publish and unpublish in a library of major versions only: SharePoint\'s SPException, and the file is as it was', async () => {
    await add('draft.txt', 'v1');
    const file = sp.web.getFileByServerRelativePath(`${LIB}/draft.txt`);
    const before = await file();
    for (const call of [file.publish('ready'), file.unpublish('not yet'), member.web.getFileByServerRelativePath(`${LIB}/draft.txt`).publish()]) {
      const refused = await failure(call);
      assert.deepEqual([refused.status, refused.code, refused.message],
        [400, SP_EXCEPTION, 'You can only publish, unpublish  documents in a minor version enabled list']);
    }
    assert.equal((await failure(visitor.web.getFileByServerRelativePath(`${LIB}/draft.txt`).publish())).status, 403, 'a visitor may not write');
    const after = await file();
    assert.deepEqual([after.UIVersionLabel, after.ETag, after.CheckInComment, after.MajorVersion, after.MinorVersion],
      [before.UIVersionLabel, before.ETag, before.CheckInComment, 1, 0], 'no version moved, no comment kept');
    assert.deepEqual(await file.versions(), [], 'no version was made');
  });

  it('approve and deny without content approval are refused; they need ApproveItems, which members do not have', async () => {
    await add('review.txt', 'to review');
    const file = sp.web.getFileByServerRelativePath(`${LIB}/review.txt`);
    for (const call of [file.approve('fine'), file.deny('no')]) {
      const refused = await failure(call);
      assert.deepEqual([refused.status, refused.code, refused.message], [400, SP_EXCEPTION, 'Content approval is not enabled for this list.']);
    }
    assert.equal((await failure(member.web.getFileByServerRelativePath(`${LIB}/review.txt`).approve('ok'))).status, 403, 'Edit has no ApproveItems');
    assert.equal((await failure(visitor.web.getFileByServerRelativePath(`${LIB}/review.txt`).deny('no'))).status, 403);
    const list = await sp.web.lists.getByTitle('Documents').select('EnableModeration', 'EnableMinorVersions')();
    assert.deepEqual([list.EnableModeration, list.EnableMinorVersions], [false, false], 'the library says why');
    assert.equal((await file()).UIVersionLabel, '1.0');
  });

  it("a file's Properties is its property bag (SP.PropertyValues), readable by a visitor", async () => {
    await add('bag.txt', 'x');
    // PnPjs 4 has no `file.properties`: the bag is read as PnPjs reads any navigation, an SPInstance below the file.
    const bagOf = (client: SPFI, name: string) => SPInstance(client.web.getFileByServerRelativePath(`${LIB}/${name}`), 'Properties')();
    const bag = await bagOf(sp, 'bag.txt') as Record<string, unknown>;
    assert.match(String(bag['odata.metadata']), /SP\.PropertyValues/);
    assert.ok(await bagOf(visitor, 'bag.txt'));
    const raw = await fetch(`${site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/bag.txt`)}')/Properties`,
      { headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(raw.status, 200);
    assert.equal(((await raw.json()) as { d: { __metadata: { type: string } } }).d.__metadata.type, 'SP.PropertyValues');
    const missing = await failure(bagOf(sp, 'no-bag.txt'));
    assert.equal(missing.status, 404, 'no file, no bag');
  });

  it('versions.recycleByID and recycleByLabel remove one past version each; the current one and the others stay', async () => {
    await add('history.txt', 'one');
    const file = sp.web.getFileByServerRelativePath(`${LIB}/history.txt`);
    await file.setContent('two');
    await file.setContent('three');
    await file.setContent('four');
    const labels = async () => (await file.versions()).map((v) => v.VersionLabel).sort();
    assert.deepEqual(await labels(), ['1.0', '2.0', '3.0']);
    assert.equal((await failure(visitor.web.getFileByServerRelativePath(`${LIB}/history.txt`).versions.recycleByID(512))).status, 403);
    await file.versions.recycleByID(512);
    assert.deepEqual(await labels(), ['2.0', '3.0']);
    await file.versions.recycleByLabel('3.0');
    assert.deepEqual(await labels(), ['2.0']);
    // The version left still has its own bytes; the file its current ones.
    const kept = await fetch(`${site}/_vti_history/1024/Shared Documents/history.txt`);
    assert.deepEqual([kept.status, await kept.text()], [200, 'two']);
    assert.equal(await file.getText(), 'four');
    assert.equal((await failure(file.versions.recycleByID(512))).status, 404, 'a version that is gone');
    const current = await failure(file.versions.recycleByLabel('4.0'));
    assert.deepEqual([current.status, current.message], [400, 'The current version of an item cannot be deleted. Delete the item instead.'], 'the current version stays');
    assert.equal((await file()).UIVersionLabel, '4.0');
  });

  it('files.addTemplateFile makes a page from each template in Site Pages; a taken name is refused', async () => {
    // As PnPjs's own test does (it uses defaultDocumentLibrary): the Documents' files, a server-relative URL into Site Pages.
    const files = sp.web.lists.getByTitle('Documents').rootFolder.files;
    const made = await files.addTemplateFile(`${PAGES}/Standard page.aspx`, TemplateFileType.StandardPage);
    assert.deepEqual([made.Name, made.ServerRelativeUrl], ['Standard page.aspx', `${PAGES}/Standard page.aspx`]);
    const text = await sp.web.getFileByServerRelativePath(made.ServerRelativeUrl).getText();
    assert.match(text, /^<%@ Page /);
    assert.match(text, /WebPartPages\.WebPartPage/);
    const kinds: Array<[TemplateFileType, RegExp]> = [[TemplateFileType.WikiPage, /WikiEditPage/], [TemplateFileType.FormPage, /WebPartZone/],
      [TemplateFileType.ClientSidePage, /ClientSidePage/]];
    for (const [type, shape] of kinds) {
      const page = await files.addTemplateFile(`${PAGES}/Page ${type}.aspx`, type);
      assert.match(await sp.web.getFileByServerRelativePath(page.ServerRelativeUrl).getText(), shape);
    }
    const items = await sp.web.lists.getByTitle('Site Pages').items.select('FileLeafRef')();
    assert.deepEqual(items.map((i) => i.FileLeafRef).sort(), ['Home.aspx', 'Page 1.aspx', 'Page 2.aspx', 'Page 3.aspx', 'Standard page.aspx']);

    const taken = await failure(files.addTemplateFile(`${PAGES}/Standard page.aspx`, TemplateFileType.WikiPage));
    assert.deepEqual([taken.status, taken.code], [400, '-2130575257, Microsoft.SharePoint.SPException']);
    assert.match(await sp.web.getFileByServerRelativePath(made.ServerRelativeUrl).getText(), /WebPartPages\.WebPartPage/, 'the page kept');
    assert.equal((await failure(visitor.web.lists.getByTitle('Documents').rootFolder.files.addTemplateFile(`${PAGES}/v.aspx`, 0))).status, 403);
    const badType = await failure(files.addTemplateFile(`${PAGES}/bad.aspx`, 7 as TemplateFileType));
    assert.equal(badType.status, 400);
    assert.ok(!(await fileNames(PAGES)).includes('bad.aspx') && !(await fileNames(PAGES)).includes('v.aspx'), 'nothing written');
  });

  it('EncodedAbsUrl is the absolute URL, percent-encoded, and getFileByUrl finds the file by it', async () => {
    const name = 'Budget 100% #2.txt';
    const added = await add(name, 'numbers');
    const item = await sp.web.getFileByServerRelativePath(`${LIB}/${name}`).getItem();
    const { EncodedAbsUrl } = await item.select('EncodedAbsUrl')();
    const origin = new URL(site).origin;
    assert.equal(EncodedAbsUrl, `${origin}/sites/dev/Shared%20Documents/Budget%20100%25%20%232.txt`);
    const found = await sp.web.getFileByUrl(EncodedAbsUrl)();
    assert.equal(found.UniqueId, added.UniqueId);
    // Among other properties, on every item of the library, in verbose too.
    const raw = await fetch(`${site}/_api/web/lists/getbytitle('Documents')/items?$select=Id,EncodedAbsUrl,FileRef`, { headers: { Accept: 'application/json;odata=verbose' } });
    const rows = ((await raw.json()) as { d: { results: unknown } }).d.results as Array<{ EncodedAbsUrl: string; FileRef: string }>;
    assert.ok(rows.length > 1);
    for (const row of rows) assert.equal(row.EncodedAbsUrl, `${origin}${row.FileRef.split('/').map(encodeURIComponent).join('/')}`);
  });

  it("Site Pages holds Home.aspx as item 1 from the start; the item's Folder is null for a file, its File the page", async () => {
    const pages = sp.web.lists.getByTitle('Site Pages');
    const home = await pages.items.getById(1).select('Id', 'FileLeafRef', 'FileRef', 'FSObjType', 'Title')();
    assert.deepEqual([home.Id, home.FileLeafRef, home.FileRef, home.FSObjType, home.Title], [1, 'Home.aspx', `${PAGES}/Home.aspx`, '0', 'Home']);
    const file = await pages.items.getById(1).file() as { Name: string };
    assert.equal(file.Name, 'Home.aspx');
    assert.match(await sp.web.getFileByServerRelativePath(`${PAGES}/Home.aspx`).getText(), /ClientSidePage/);
    // A file item has no folder: SharePoint answers null rather than an error.
    await pages.items.getById(1).folder();
    const raw = await fetch(`${site}/_api/web/lists/getbytitle('Site Pages')/items(1)/Folder`, { headers: { Accept: 'application/json;odata=nometadata' } });
    assert.deepEqual([raw.status, await raw.json()], [200, { 'odata.null': true }]);
    // Another site has its own.
    const other = await fetch(`${spemu.server.site('/sites/pwa')}/_api/web/lists/getbytitle('Site Pages')/items(1)?$select=FileLeafRef`, { headers: { Accept: 'application/json;odata=nometadata' } });
    assert.deepEqual([other.status, ((await other.json()) as { FileLeafRef: string }).FileLeafRef], [200, 'Home.aspx']);
  });

  it('a path over 400 characters is refused on add, rename, move and copy of files and folders, and nothing is written', async () => {
    const root = sp.web.getFolderByServerRelativePath(LIB);
    // `/sites/dev/Shared Documents/` is 28 characters: a 372-character rest is exactly 400.
    const deep = `${'d'.repeat(200)}`;
    await root.folders.addUsingPath(deep);
    const at400 = `${'f'.repeat(400 - 28 - deep.length - 1 - 4)}.txt`;
    assert.equal(`${LIB}/${deep}/${at400}`.length, 400);
    await add(at400, 'fits', `${LIB}/${deep}`); // 400 is allowed
    const over = `g${at400}`;
    const expectTooLong = async (call: Promise<unknown>, what: string) => {
      const refused = await failure(call);
      assert.deepEqual([refused.status, refused.code, refused.message], [400, TOO_LONG, TOO_LONG_TEXT], what);
    };
    await expectTooLong(add(over, 'no', `${LIB}/${deep}`), 'file add');
    await expectTooLong(sp.web.getFolderByServerRelativePath(`${LIB}/${deep}`).folders.addUsingPath(over), 'folder add');
    await add('short.txt', 'short');
    await expectTooLong(sp.web.getFileByServerRelativePath(`${LIB}/short.txt`).moveByPath(`${LIB}/${deep}/${over}`, false), 'file move');
    await expectTooLong(sp.web.getFileByServerRelativePath(`${LIB}/short.txt`).copyByPath(`${LIB}/${deep}/${over}`, false), 'file copy');
    // A folder moved or renamed takes what it holds along: the deepest path below it counts.
    await root.folders.addUsingPath('Carrier');
    await add(`${'h'.repeat(200)}.txt`, 'inside', `${LIB}/Carrier`);
    await expectTooLong(sp.web.getFolderByServerRelativePath(`${LIB}/Carrier`).moveByPath(`${LIB}/${deep}/Carrier`), 'folder move');
    await expectTooLong(sp.web.getFolderByServerRelativePath(`${LIB}/Carrier`).update({ Name: 'c'.repeat(230) }), 'folder rename');
    assert.deepEqual(await fileNames(`${LIB}/${deep}`), [at400]);
    assert.deepEqual((await sp.web.getFolderByServerRelativePath(`${LIB}/${deep}`).folders()).map((f) => f.Name), []);
    assert.deepEqual(await fileNames(`${LIB}/Carrier`), [`${'h'.repeat(200)}.txt`]);
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/short.txt`).getText(), 'short');
  });

  it('getStream reads the bytes as a stream; exists answers true and false for files, $select=Exists for folders', async () => {
    const bytes = randomBytes(200_000);
    await add('stream.bin', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
    const { body, knownLength } = await sp.web.getFileByServerRelativePath(`${LIB}/stream.bin`).getStream();
    const chunks: Uint8Array[] = [];
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    assert.ok(Buffer.concat(chunks).equals(bytes), 'the same bytes');
    assert.equal(knownLength, bytes.length);
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/stream.bin`).exists(), true);
    assert.equal(await visitor.web.getFileByServerRelativePath(`${LIB}/stream.bin`).exists(), true, 'a visitor may look');
    assert.equal(await sp.web.getFileByServerRelativePath(`${LIB}/no-stream.bin`).exists(), false);
    assert.equal(await sp.web.getFolderByServerRelativePath(LIB).files.getByUrl('no-stream.bin').exists(), false);
    // PnPjs 4's folders have no exists(): clients probe with $select=Exists, which answers for a missing folder too.
    await sp.web.getFolderByServerRelativePath(LIB).folders.addUsingPath('Probe');
    assert.equal((await sp.web.getFolderByServerRelativePath(`${LIB}/Probe`).select('Exists')()).Exists, true);
    assert.equal((await sp.web.getFolderByServerRelativePath(`${LIB}/No Probe`).select('Exists')()).Exists, false);
  });
});
