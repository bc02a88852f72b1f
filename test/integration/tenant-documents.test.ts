// A tenant file's libraries, folders and files (issue #11), loaded by a real server on the
// leg's database (a SQLite workspace file, whose bytes go to its blobs folder; or PostgreSQL,
// whose bytes are chunks in the database) and read back with plain fetch as a signed-in
// member: the folder listings, the items' fields and history, and each file's exact bytes.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TENANT, startTestServer, useTestServer } from '../helpers/server.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { testBackend } from '../helpers/postgres.ts';

const SECRET = 'tenant-documents-secret-tenant-documents-0123';
const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
const MARK = 'mark@fabrikam.onmicrosoft.com';
const NOMETA = 'application/json;odata=nometadata';

const dir = mkdtempSync(join(tmpdir(), 'spemu-tenant-documents-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// More than one 1 MiB chunk on PostgreSQL, streamed from disk; every byte value.
const BIG = randomBytes(2 * 1024 * 1024 + 12_345);
const SMALL = Buffer.from([0, 1, 2, 253, 254, 255, 10, 13]);
const TEXT = 'Zoë’s plan — ünïcödé 😀\n';

function writeTenant(): string {
  mkdirSync(join(dir, 'content', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'content', 'deep', 'big.bin'), BIG);
  const tenant = {
    tenant: { name: 'fabrikam' },
    users: [{ upn: OLIVIA, displayName: 'Olivia Owner' }, { upn: MARK, displayName: 'Mark Member' }],
    sites: [{
      url: '/sites/test', title: 'Test', owners: [OLIVIA], members: [MARK],
      lists: [
        {
          title: 'Documents', description: 'The team\'s documents',
          fields: [{ name: 'Kind', type: 'Choice', choices: ['Plan', 'Data'] }],
          folders: ['Empty/Nested'],
          files: [
            { path: 'Plans/2024/plan.txt', content: { text: TEXT }, Title: 'The plan', Kind: 'Plan', author: MARK, editor: OLIVIA, created: '2024-03-01T09:00:00Z', modified: '2024-03-02T10:30:00Z' },
            { path: 'small.bin', content: { base64: SMALL.toString('base64') }, Kind: 'Data' },
            { path: 'Plans/big.bin', content: { file: 'content/deep/big.bin' } },
          ],
        },
        { title: 'Contracts', template: 101, files: [{ path: 'signed/2024/a.txt', content: { text: 'signed' } }, { path: 'copy.bin', content: { file: './content/deep/big.bin' } }] },
      ],
    }],
  };
  const file = join(dir, 'tenant.json');
  writeFileSync(file, JSON.stringify(tenant));
  return file;
}

describe(`a tenant file's libraries, folders and files (${testBackend()})`, () => {
  const seed = writeTenant();
  // On the SQLite leg a workspace on disk (not :memory:), so the bytes are files of its blobs folder.
  const workspace = join(dir, 'workspace');
  const spemu = useTestServer({
    seed, tokenSecret: SECRET, anonymousUser: undefined,
    ...(testBackend() === 'sqlite' ? { db: join(workspace, 'spemu.db'), data: workspace } : {}),
  });
  let api: string;
  let auth: string;
  before(async () => {
    api = `${spemu.server.site('/sites/test')}/_api/web`;
    auth = await bearerFor(SECRET, MARK);
  });

  const get = async (path: string) => {
    const r = await fetch(`${api}${path}`, { headers: { Accept: NOMETA, Authorization: auth } });
    return { status: r.status, bytes: Buffer.from(await r.arrayBuffer()) };
  };
  const json = async (path: string) => {
    const r = await get(path);
    assert.equal(r.status, 200, r.bytes.toString());
    return JSON.parse(r.bytes.toString()) as any;
  };
  const bytesOf = async (url: string) => {
    const r = await get(`/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(url)}')/$value`);
    assert.equal(r.status, 200, `${url}: ${r.bytes.toString()}`);
    return r.bytes;
  };

  it('every file answers its exact bytes: text as UTF-8, base64 decoded, a content file streamed in', async () => {
    assert.ok((await bytesOf('/sites/test/Shared Documents/Plans/2024/plan.txt')).equals(Buffer.from(TEXT, 'utf8')));
    assert.ok((await bytesOf('/sites/test/Shared Documents/small.bin')).equals(SMALL));
    assert.ok((await bytesOf('/sites/test/Shared Documents/Plans/big.bin')).equals(BIG));
    assert.ok((await bytesOf('/sites/test/Contracts/signed/2024/a.txt')).equals(Buffer.from('signed')));
    assert.ok((await bytesOf('/sites/test/Contracts/copy.bin')).equals(BIG));
  });

  it('folders are listed with their files, the missing parents of a file made', async () => {
    const root = "/GetFolderByServerRelativePath(decodedurl='/sites/test/Shared Documents')";
    assert.deepEqual((await json(`${root}/Files?$select=Name,Length`)).value, [{ Length: String(SMALL.length), Name: 'small.bin' }]);
    assert.deepEqual((await json(`${root}/Folders?$select=Name,ItemCount`)).value, [{ ItemCount: 1, Name: 'Empty' }, { ItemCount: 2, Name: 'Plans' }]);
    const plans = "/GetFolderByServerRelativePath(decodedurl='/sites/test/Shared Documents/Plans')";
    assert.deepEqual((await json(`${plans}/Files?$select=Name,Length`)).value, [{ Length: String(BIG.length), Name: 'big.bin' }]);
    assert.deepEqual((await json(`${plans}/Folders?$select=Name`)).value, [{ Name: '2024' }]);
    const nested = await json("/GetFolderByServerRelativePath(decodedurl='/sites/test/Shared Documents/Empty/Nested')?$select=Exists,ItemCount");
    assert.deepEqual(nested, { Exists: true, ItemCount: 0 });
    const contracts = await json("/GetFolderByServerRelativePath(decodedurl='/sites/test/Contracts/signed/2024')/Files?$select=Name");
    assert.deepEqual(contracts.value, [{ Name: 'a.txt' }]);
  });

  it('files carry their field values and history; the library its description; IDs follow the file', async () => {
    const items = await json("/lists/getbytitle('Documents')/items?$select=Id,Title,Kind,FileRef,FSObjType,Created,Modified,Author/Title,Editor/Title&$expand=Author,Editor&$orderby=Id");
    const rows = items.value.map((i: any) => [i.Id, i.FileRef.replace('/sites/test/Shared Documents/', ''), i.FSObjType, i.Title, i.Kind]);
    // Folders first (Empty, Empty/Nested), then each file after the folders it needs.
    assert.deepEqual(rows, [
      [1, 'Empty', '1', null, null], [2, 'Empty/Nested', '1', null, null],
      [3, 'Plans', '1', null, null], [4, 'Plans/2024', '1', null, null], [5, 'Plans/2024/plan.txt', '0', 'The plan', 'Plan'],
      [6, 'small.bin', '0', null, 'Data'], [7, 'Plans/big.bin', '0', null, null],
    ]);
    const plan = items.value[4];
    assert.deepEqual([plan.Created, plan.Modified, plan.Author.Title, plan.Editor.Title], ['2024-03-01T09:00:00Z', '2024-03-02T10:30:00Z', 'Mark Member', 'Olivia Owner']);
    const small = items.value[5];
    assert.deepEqual([small.Author.Title, small.Editor.Title, small.Created === small.Modified], ['Olivia Owner', 'Olivia Owner', true]);
    const library = await json("/lists/getbytitle('Documents')?$select=Description,ItemCount,BaseTemplate,RootFolder/ServerRelativeUrl&$expand=RootFolder");
    assert.deepEqual([library.Description, library.ItemCount, library.BaseTemplate, library.RootFolder.ServerRelativeUrl],
      ["The team's documents", 7, 101, '/sites/test/Shared Documents']);
    const lists = await json('/lists?$select=Title&$filter=BaseTemplate eq 101');
    assert.deepEqual(lists.value.map((l: any) => l.Title).sort(), ['Contracts', 'Documents', 'Site Assets'], 'the Documents entry adds to the library, not a second one');
  });

  // Where the bytes went is the backend's own: on SQLite, files of the workspace's blobs folder.
  if (testBackend() === 'sqlite') {
    it('on a SQLite workspace the bytes are files of its blobs folder, one per distinct content', () => {
      // Five files, four distinct contents (big.bin twice), and the one Home.aspx every site's Site Pages holds.
      const blobs = readdirSync(join(workspace, 'blobs', 'sha256'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      assert.equal(blobs.length, 5);
    });
  }
});

describe('a tenant file whose content file cannot be read', () => {
  it('is refused at start, naming the file\'s JSON path', async () => {
    // A parsed seed has no file to be relative to: its content files are read from the working folder.
    const seed = {
      tenant: { name: 'fabrikam' }, users: [{ upn: OLIVIA, displayName: 'Olivia Owner' }],
      sites: [{ url: '/sites/test', title: 'Test', owners: [OLIVIA], lists: [{ title: 'Documents', files: [{ path: 'a.txt', content: { file: 'no/such/file.txt' } }] }] }],
    };
    await assert.rejects(startTestServer({ seed }), (e: Error) => /\/sites\/0\/lists\/0\/files\/0\/content\/file: .*ENOENT/.test(e.message));
  });
});

describe('the demo tenant\'s Documents library', () => {
  const spemu = useTestServer();
  const demoFile = (name: string) => readFileSync(join(DEMO_TENANT, '..', 'documents', name));

  it('holds the demo files, each answering the bytes of demo/documents/', async () => {
    const api = `${spemu.server.site('/sites/dev')}/_api/web`;
    const list = async (what: string) => {
      const r = await fetch(`${api}/GetFolderByServerRelativePath(decodedurl='/sites/dev/Shared Documents')${what}`, { headers: { Accept: NOMETA } });
      assert.equal(r.status, 200);
      return ((await r.json()) as { value: Array<{ Name: string }> }).value.map((v) => v.Name);
    };
    assert.deepEqual(await list('/Files'), ['meeting-notes.txt']);
    assert.deepEqual(await list('/Folders'), ['Reports', 'Templates', 'Images']);
    for (const [path, name] of [['Reports', 'quarterly-report.pdf'], ['', 'meeting-notes.txt'], ['Templates', 'project-plan.docx'], ['Images', 'contoso-logo.png']]) {
      const url = `/sites/dev/Shared Documents/${path ? `${path}/` : ''}${name}`;
      const r = await fetch(`${api}/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(url)}')/$value`);
      assert.equal(r.status, 200, url);
      assert.ok(Buffer.from(await r.arrayBuffer()).equals(demoFile(name!)), url);
    }
  });
});
