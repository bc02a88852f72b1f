// spsave 4 and sppull 3 (both on sp-request and node-sp-auth), unmodified, with forms
// credentials against spemu's demo site: spsave uploads one file, several through a glob, into
// folders it must create first (it reads SharePoint's DirectoryNotFoundException to do so),
// overwrites, and checks a file out and in; sppull downloads a folder tree (nested folders, an
// empty one) into a temporary directory. Bytes are checked on a second path: plain fetch of
// `$value` with a bearer token, and the files on disk.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useTestServer } from '../helpers/server.ts';
import { bearerFor } from '../helpers/bearer.ts';

const require = createRequire(import.meta.url);
const { spsave } = require('spsave') as typeof import('spsave');
const sprequest = require('sp-request') as typeof import('sp-request');
const { SPPull } = require('sppull') as { SPPull: { download(context: object, options: object): Promise<Array<{ ServerRelativeUrl: string; SavedToLocalPath?: string; Error?: unknown }>> } };

const SECRET = 'spsave-sppull-secret-0123456789-abcdefghij';
const ALICE = 'alice@contoso.onmicrosoft.com';
const LIB = '/sites/dev/Shared Documents';
/** Forms credentials (node-sp-auth's IOnpremiseFbaCredentials, which its IAuthOptions union leaves out). */
const credentials = (() => {
  const c = { username: ALICE, password: 'alice-demo-pass', fba: true };
  return c;
})();

describe('spsave and sppull with forms credentials against spemu', () => {
  const spemu = useTestServer({ anonymousUser: undefined, tokenSecret: SECRET });
  let site: string;
  let bearer: string;
  const temp = mkdtempSync(join(tmpdir(), 'spemu-spsave-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  before(async () => {
    site = spemu.server.site('/sites/dev');
    bearer = await bearerFor(SECRET, ALICE);
  });

  const api = (path: string, init: RequestInit = {}) => fetch(`${site}/_api/${path}`, {
    ...init, headers: { Authorization: bearer, Accept: 'application/json;odata=nometadata', ...(init.headers as Record<string, string> | undefined) },
  });
  const at = (url: string) => `'${encodeURIComponent(url.replace(/'/g, "''"))}'`;
  /** A file's bytes, read back with plain fetch. */
  const bytesOf = async (url: string) => {
    const res = await api(`web/GetFileByServerRelativeUrl(${at(url)})/$value`);
    assert.equal(res.status, 200, `${url} is there`);
    return Buffer.from(await res.arrayBuffer());
  };
  const fileProps = async (url: string) =>
    (await (await api(`web/GetFileByServerRelativeUrl(${at(url)})?$select=CheckOutType,CheckInComment,UIVersionLabel,Length`)).json()) as
      { CheckOutType: number; CheckInComment: string; UIVersionLabel: string; Length: string };

  it('uploads one file into a folder two levels deep that is not there yet: spsave creates both', async () => {
    const content = randomBytes(70_000);
    const result = await spsave({ siteUrl: site }, credentials, { folder: 'Shared Documents/Uploads/2026', fileName: 'report.bin', fileContent: content });
    assert.equal((result as { d: { ServerRelativeUrl: string } }).d.ServerRelativeUrl, `${LIB}/Uploads/2026/report.bin`);
    assert.deepEqual(await bytesOf(`${LIB}/Uploads/2026/report.bin`), content);
    const folder = (await (await api(`web/GetFolderByServerRelativeUrl(${at(`${LIB}/Uploads/2026`)})?$select=Name,ItemCount`)).json()) as { Name: string; ItemCount: number };
    assert.deepEqual(folder, { Name: '2026', ItemCount: 1 });
  });

  it('uploads several files through a glob, a nested one into its own subfolder (base keeps the tree)', async () => {
    const source = join(temp, 'site-assets');
    mkdirSync(join(source, 'css'), { recursive: true });
    const files: Record<string, Buffer> = {
      'index.html': Buffer.from('<!doctype html><title>spsave</title>'),
      'logo.bin': randomBytes(4096),
      'css/site.css': Buffer.from('body { margin: 0 }\n'),
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(source, name), content);
    await spsave({ siteUrl: site }, credentials, { glob: [`${source}/**/*.*`], base: source, folder: 'Shared Documents/Assets' });
    for (const [name, content] of Object.entries(files)) assert.deepEqual(await bytesOf(`${LIB}/Assets/${name}`), content, name);
  });

  it('overwrites a file it uploaded before: the new bytes replace the old', async () => {
    const url = `${LIB}/Uploads/2026/report.bin`;
    const replacement = Buffer.from('second edition');
    await spsave({ siteUrl: site }, credentials, { folder: 'Shared Documents/Uploads/2026', fileName: 'report.bin', fileContent: replacement });
    assert.deepEqual(await bytesOf(url), replacement);
    assert.equal((await fileProps(url)).Length, String(replacement.length));
  });

  it('with checkin: checks the file out, uploads and checks it in with its comment, as a major version', async () => {
    const url = `${LIB}/Uploads/2026/report.bin`;
    const before = await fileProps(url);
    await spsave({ siteUrl: site, checkin: true, checkinType: 1 }, credentials, { folder: 'Shared Documents/Uploads/2026', fileName: 'report.bin', fileContent: 'checked in' });
    assert.equal((await bytesOf(url)).toString(), 'checked in');
    const after = await fileProps(url);
    assert.equal(after.CheckOutType, 2, 'no longer checked out');
    assert.equal(after.CheckInComment, 'Checked in by spsave');
    assert.notEqual(after.UIVersionLabel, before.UIVersionLabel);
    // A new file with checkin: spsave finds it missing, uploads it, then goes round again to check it out and in.
    await spsave({ siteUrl: site, checkin: true, checkinType: 1 }, credentials, { folder: 'Shared Documents/Uploads', fileName: 'fresh.txt', fileContent: 'fresh' });
    assert.equal((await bytesOf(`${LIB}/Uploads/fresh.txt`)).toString(), 'fresh');
    assert.equal((await fileProps(`${LIB}/Uploads/fresh.txt`)).CheckOutType, 2);
  });

  it('sppull downloads a folder tree (nested folders, an empty one) byte for byte, and nothing outside it; or only the files it names', async () => {
    // The tree, made with plain REST calls.
    const digest = ((await (await api('contextinfo', { method: 'POST' })).json()) as { FormDigestValue: string }).FormDigestValue;
    const post = async (path: string, body?: Buffer) => {
      const res = await api(path, { method: 'POST', headers: { 'X-RequestDigest': digest }, ...(body ? { body } : {}) });
      assert.ok(res.ok, `${path}: ${res.status} ${await res.clone().text()}`);
    };
    for (const folder of ['Pull', 'Pull/bin', 'Pull/bin/deeper', 'Pull/empty', 'Pull/with space']) {
      await post(`web/folders/addUsingPath(DecodedUrl=${at(`${LIB}/${folder}`)})`);
    }
    const tree: Record<string, Buffer> = {
      'top.txt': Buffer.from('at the top'),
      'bin/blob.bin': randomBytes(300_000),
      'bin/deeper/note.md': Buffer.from('# deeper\n'),
      'with space/a file.txt': Buffer.from('spaces in names'),
    };
    for (const [path, content] of Object.entries(tree)) {
      const slash = path.lastIndexOf('/');
      const dir = slash < 0 ? 'Pull' : `Pull/${path.slice(0, slash)}`;
      await post(`web/GetFolderByServerRelativeUrl(${at(`${LIB}/${dir}`)})/Files/add(url=${at(path.slice(slash + 1))},overwrite=true)`, content);
    }

    const target = join(temp, 'pulled');
    const results = await SPPull.download({ siteUrl: site, creds: credentials }, { spRootFolder: 'Shared Documents/Pull', dlRootFolder: target, muteConsole: true });
    assert.deepEqual(results.filter((r) => r.Error !== undefined), [], 'every download succeeded');
    assert.deepEqual(results.map((r) => r.ServerRelativeUrl).sort(), Object.keys(tree).map((p) => `${LIB}/Pull/${p}`).sort());
    for (const [path, content] of Object.entries(tree)) assert.deepEqual(readFileSync(join(target, path)), content, path);
    assert.ok(statSync(join(target, 'empty')).isDirectory(), 'the empty folder is made too');
    const onDisk = (readdirSync(target, { recursive: true }) as string[]).filter((p) => statSync(join(target, p)).isFile()).sort();
    assert.deepEqual(onDisk, Object.keys(tree).sort(), 'nothing from outside the folder');

    // strictObjects: named files only, no folder walk.
    const strict = join(temp, 'strict');
    const picked = await SPPull.download({ siteUrl: site, creds: credentials }, { spRootFolder: 'Shared Documents/Pull', strictObjects: ['bin/blob.bin'], dlRootFolder: strict, muteConsole: true });
    assert.deepEqual(picked.map((r) => [r.ServerRelativeUrl, r.Error]), [[`${LIB}/Pull/bin/blob.bin`, undefined]]);
    assert.deepEqual(readFileSync(join(strict, 'bin', 'blob.bin')), tree['bin/blob.bin']);
  });
});

describe('over HTTPS (--https, spemu\'s own certificate): the same clients, unmodified, no CA given', () => {
  // node-sp-auth, sp-request and sppull's downloads do not check certificates (rejectUnauthorized: false).
  const temp = mkdtempSync(join(tmpdir(), 'spemu-spsave-tls-'));
  after(() => rmSync(temp, { recursive: true, force: true }));
  const spemu = useTestServer(() => ({ https: true, data: join(temp, 'workspace'), anonymousUser: undefined }));

  it('sp-request signs in and writes; spsave uploads into a new folder; sppull downloads it', async () => {
    const site = spemu.server.site('/sites/dev');
    assert.match(site, /^https:/);
    const spr = sprequest.create(credentials);
    const digest = await spr.requestDigest(site);
    const created = await spr.post(`${site}/_api/web/lists/getbytitle('Tasks')/items`, {
      headers: { 'X-RequestDigest': digest }, body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'over TLS' },
    });
    assert.equal(created.statusCode, 201);

    const content = randomBytes(10_000);
    await spsave({ siteUrl: site }, credentials, { folder: 'Shared Documents/Secure/Inner', fileName: 'sealed.bin', fileContent: content });
    const target = join(temp, 'pulled');
    const results = await SPPull.download({ siteUrl: site, creds: credentials }, { spRootFolder: 'Shared Documents/Secure', dlRootFolder: target, muteConsole: true });
    assert.deepEqual(results.map((r) => [r.ServerRelativeUrl, r.Error]), [[`${LIB}/Secure/Inner/sealed.bin`, undefined]]);
    assert.deepEqual(readFileSync(join(target, 'Inner', 'sealed.bin')), content);
  });
});

describe('a folder that is not there, on the wire (what spsave relies on)', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  const at = (url: string) => `'${encodeURIComponent(url)}'`;

  it('adding a file to it is 404 DirectoryNotFoundException; reading it, or below it, 404 FileNotFoundException; nothing is written', async () => {
    const site = spemu.server.site('/sites/dev');
    const api = (path: string, init: RequestInit = {}) => fetch(`${site}/_api/${path}`, { ...init, headers: { Accept: 'application/json;odata=verbose' } });
    const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: { value: string } } }).error;
    for (const [folder, add] of [['Shared Documents/Nowhere/Deeper', "Files/add(url='a.txt',overwrite=true)"], [`${LIB}/Nowhere`, "Files/addUsingPath(DecodedUrl='a.txt',Overwrite=true)"]] as const) {
      const added = await api(`web/GetFolderByServerRelativeUrl(${at(folder)})/${add}`, { method: 'POST', body: 'bytes' });
      assert.equal(added.status, 404, folder);
      const error = await errorOf(added);
      assert.equal(error.code, '-2147024893, System.IO.DirectoryNotFoundException');
      assert.equal(error.message.value, 'Attempted to access a path that is not on the disk.');
      for (const read of ['', '/Files', '/Folders', '/ListItemAllFields', '/ParentFolder']) {
        const res = await api(`web/GetFolderByServerRelativePath(DecodedUrl=${at(folder)})${read}`);
        assert.equal(res.status, 404, `GET …${read}`);
        assert.equal((await errorOf(res)).code, '-2147024894, System.IO.FileNotFoundException', `GET …${read}`);
      }
      for (const method of ['DELETE', 'MERGE']) {
        const res = await api(`web/GetFolderByServerRelativeUrl(${at(folder)})`, { method, headers: {} });
        assert.equal(res.status, 404, method);
      }
    }
    const probe = await api(`web/GetFolderByServerRelativeUrl(${at(`${LIB}/Nowhere`)})?$select=Exists`);
    assert.equal(((await probe.json()) as { d: { Exists: boolean } }).d.Exists, false, 'the Exists probe still answers false');
    const root = (await (await api(`web/GetFolderByServerRelativeUrl(${at(LIB)})/Folders?$select=Name`)).json()) as { d: { results: Array<{ Name: string }> } };
    assert.ok(!root.d.results.some((f) => f.Name === 'Nowhere'));
  });

  it('a folder expands its Folders and Files with their list items (sppull\'s walk); SP.Folder and SP.File pass over names they lack in $select', async () => {
    const site = spemu.server.site('/sites/dev');
    const res = await fetch(`${site}/_api/Web/GetFolderByServerRelativePath(DecodedUrl=@f)?$expand=Folders,Files,Folders/ListItemAllFields,Files/ListItemAllFields`
      + '&$select=Folders/ListItemAllFields/Id,Folders/Name,Folders/ID,Folder/TimeCreated,Files/Name,Files/ID,Files/Length,Files/ModifiedBy,Files/ListItemAllFields/Title'
      + `&@f=${at(LIB)}`, { headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(res.status, 200);
    type Folder = { Name: string; ListItemAllFields: { Id: number } };
    type File = { Name: string; Length: string; ModifiedBy: { __deferred: { uri: string } }; ListItemAllFields: { Title: string } };
    const d = ((await res.json()) as { d: { Folders: { results: Folder[] }; Files: { results: File[] } } }).d;
    assert.deepEqual(d.Folders.results.map((f) => f.Name).sort(), ['Images', 'Reports', 'Templates']);
    for (const f of d.Folders.results) {
      assert.equal(typeof f.ListItemAllFields.Id, 'number');
      assert.deepEqual(Object.keys(f).filter((k) => k !== '__metadata').sort(), ['ListItemAllFields', 'Name'], 'ID is no property of SP.Folder: passed over');
    }
    const notes = d.Files.results.find((f) => f.Name === 'meeting-notes.txt')!;
    assert.equal(notes.ListItemAllFields.Title, 'Apollo weekly notes');
    assert.match(notes.ModifiedBy.__deferred.uri, /\/ModifiedBy$/, 'a navigation selected alone stays deferred');
    assert.equal(notes.Length, String(readFileSync(new URL('../../demo/documents/meeting-notes.txt', import.meta.url)).length));

    // sppull's probe of GetFolderByServerRelativePath: `$select=Id` on the web's root folder answers 200.
    const probe = await fetch(`${site}/_api/Web/GetFolderByServerRelativePath(DecodedUrl=@f)?$select=Id&@f=${at('/sites/dev')}`);
    assert.equal(probe.status, 200);
    // Other types still refuse a name they do not have.
    const list = await fetch(`${site}/_api/web/lists/getbytitle('Tasks')?$select=NoSuchProperty`);
    assert.equal(list.status, 400);
  });
});
