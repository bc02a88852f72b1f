// A list's folders with unique permissions are kept in the store's read cache (issue #13): a
// member's read of a list with uniquely-permissioned folders runs the statements it runs on an
// inheriting twin, and every write that changes which folders govern what (a rename, a move, a
// delete or recycle, breaking and resetting inheritance) is seen by the very next request — on
// the instance that wrote it and on a second instance sharing the database (PostgreSQL on that
// leg; on the SQLite leg a shared file, as --workers run). Each case first reads as Bob through
// both instances, so both hold the folder scopes as they were before the write.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/security/index.js';
import { startSharedInstances, useTestServer, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { demoBasic, pnpFor } from '../helpers/pnp.ts';
import { installStatementRecorder, statementsOf } from '../../bench/statements.ts';

const BOB = 'bob@contoso.onmicrosoft.com';
const backend = testBackend();

/** A library with folders and files as `paths` says (a path ending in / is a folder); its root URL. */
async function library(sp: SPFI, title: string, paths: string[]): Promise<string> {
  const { list } = await sp.web.lists.ensure(title, '', 101);
  const root = (await list.rootFolder.select('ServerRelativeUrl')()).ServerRelativeUrl;
  for (const path of paths) await add(sp, root, path);
  return root;
}

async function add(sp: SPFI, root: string, path: string): Promise<void> {
  const slash = path.replace(/\/$/, '').lastIndexOf('/');
  const parent = sp.web.getFolderByServerRelativePath(slash < 0 ? root : `${root}/${path.slice(0, slash)}`);
  const name = path.replace(/\/$/, '').slice(slash + 1);
  if (path.endsWith('/')) await parent.folders.addUsingPath(name);
  else await parent.files.addUsingPath(name, `content of ${name}`);
}

const folderItemId = async (sp: SPFI, url: string) => ((await sp.web.getFolderByServerRelativePath(url).listItemAllFields.select('Id')()) as { Id: number }).Id;
const fileItemId = async (sp: SPFI, url: string) => ((await sp.web.getFileByServerRelativePath(url).listItemAllFields.select('Id')()) as { Id: number }).Id;

/** Bob's GET of a list's items (or one item) through a site URL: plain fetch, his Basic credentials. */
const asBob = (site: string, title: string, path: string) => fetch(`${site}/_api/web/lists/getbytitle('${title}')/${path}`, {
  headers: { Accept: 'application/json;odata=nometadata', Authorization: demoBasic(BOB) },
});

async function namesForBob(site: string, title: string): Promise<string[]> {
  const res = await asBob(site, title, 'items?$select=FileLeafRef&$top=500');
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { value: Array<{ FileLeafRef: string }> }).value.map((i) => i.FileLeafRef).sort();
}

describe(`folder scopes are cached and every write that changes them is seen at once, on both instances (${backend})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const servers: TestServer[] = [];
  let sp: SPFI;
  const sites = () => servers.map((s) => s.site('/sites/dev'));

  before(async () => {
    const shared = await startSharedInstances('spemu-folder-scopes-');
    cleanups.push(() => shared.close());
    servers.push(...shared.servers);
    // Writes go through the first instance, as its owner.
    sp = pnpFor(sites()[0]!);
  });
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  /** What Bob sees of the list through each instance (the same, or the assertion names the instance). */
  async function bobSees(title: string, expected: string[], when: string): Promise<void> {
    for (const [i, site] of sites().entries()) assert.deepEqual(await namesForBob(site, title), expected, `${when}: instance ${i + 1}`);
  }

  async function bobReads(title: string, id: number, status: number, when: string): Promise<void> {
    for (const [i, site] of sites().entries()) assert.equal((await asBob(site, title, `items(${id})`)).status, status, `${when}: item ${id} through instance ${i + 1}`);
  }

  it('a renamed folder keeps governing what is inside it, and a new folder at its old path inherits', async () => {
    const root = await library(sp, 'Renamed scopes', ['Closed/', 'Closed/secret.txt', 'Open/', 'Open/open.txt']);
    const list = sp.web.lists.getByTitle('Renamed scopes');
    await list.items.getById(await folderItemId(sp, `${root}/Closed`)).breakRoleInheritance(false, false);
    const secret = await fileItemId(sp, `${root}/Closed/secret.txt`);
    await bobSees('Renamed scopes', ['Open', 'open.txt'], 'before the rename');
    await bobReads('Renamed scopes', secret, 403, 'before the rename');

    await sp.web.getFolderByServerRelativePath(`${root}/Closed`).update({ Name: 'Sealed' });
    await bobSees('Renamed scopes', ['Open', 'open.txt'], 'after the rename');
    await bobReads('Renamed scopes', secret, 403, 'after the rename');
    await add(sp, root, 'Closed/');
    await add(sp, root, 'Closed/fresh.txt');
    await bobSees('Renamed scopes', ['Closed', 'Open', 'fresh.txt', 'open.txt'], 'a new folder at the old path');
  });

  it('a moved folder keeps governing what is inside it, wherever it goes', async () => {
    const root = await library(sp, 'Moved scopes', ['Closed/', 'Closed/secret.txt', 'Open/', 'Open/open.txt']);
    const list = sp.web.lists.getByTitle('Moved scopes');
    await list.items.getById(await folderItemId(sp, `${root}/Closed`)).breakRoleInheritance(false, false);
    const secret = await fileItemId(sp, `${root}/Closed/secret.txt`);
    await bobSees('Moved scopes', ['Open', 'open.txt'], 'before the move');

    await sp.web.getFolderByServerRelativePath(`${root}/Closed`).moveByPath(`${root}/Open/Closed`);
    await bobSees('Moved scopes', ['Open', 'open.txt'], 'after the move');
    await bobReads('Moved scopes', secret, 403, 'after the move');
    await add(sp, root, 'Closed/');
    await add(sp, root, 'Closed/fresh.txt');
    await bobSees('Moved scopes', ['Closed', 'Open', 'fresh.txt', 'open.txt'], 'a new folder at the old path');
  });

  it('a file moved into or out of a closed folder is checked by id where it is now (its folder, once read, is kept with the scopes)', async () => {
    const root = await library(sp, 'Moved files', ['Closed/', 'Closed/secret.txt', 'Open/', 'Open/open.txt']);
    const list = sp.web.lists.getByTitle('Moved files');
    await list.items.getById(await folderItemId(sp, `${root}/Closed`)).breakRoleInheritance(false, false);
    const secret = await fileItemId(sp, `${root}/Closed/secret.txt`);
    const open = await fileItemId(sp, `${root}/Open/open.txt`);
    await bobReads('Moved files', secret, 403, 'before the moves');
    await bobReads('Moved files', open, 200, 'before the moves');

    await sp.web.getFileByServerRelativePath(`${root}/Open/open.txt`).moveByPath(`${root}/Closed/open.txt`, false);
    await bobReads('Moved files', open, 403, 'moved into the closed folder');
    await sp.web.getFileByServerRelativePath(`${root}/Closed/secret.txt`).moveByPath(`${root}/Open/secret.txt`, false);
    await bobReads('Moved files', secret, 200, 'moved out of the closed folder');
    await bobReads('Moved files', open, 403, 'the other still inside');
  });

  it('a deleted, recycled or item-deleted folder governs nothing any more: a new folder at its path inherits', async () => {
    const root = await library(sp, 'Deleted scopes', ['Closed/', 'Closed/secret.txt', 'Binned/', 'Binned/secret2.txt', 'Dropped/', 'Open/', 'Open/open.txt']);
    const list = sp.web.lists.getByTitle('Deleted scopes');
    for (const name of ['Closed', 'Binned', 'Dropped']) await list.items.getById(await folderItemId(sp, `${root}/${name}`)).breakRoleInheritance(false, false);
    await bobSees('Deleted scopes', ['Open', 'open.txt'], 'before the deletes');

    await sp.web.getFolderByServerRelativePath(`${root}/Closed`).delete();
    await add(sp, root, 'Closed/');
    await add(sp, root, 'Closed/fresh.txt');
    await bobSees('Deleted scopes', ['Closed', 'Open', 'fresh.txt', 'open.txt'], 'after Folder delete');

    await sp.web.getFolderByServerRelativePath(`${root}/Binned`).recycle();
    await add(sp, root, 'Binned/');
    await add(sp, root, 'Binned/fresh2.txt');
    await bobSees('Deleted scopes', ['Binned', 'Closed', 'Open', 'fresh.txt', 'fresh2.txt', 'open.txt'], 'after Folder recycle');

    await list.items.getById(await folderItemId(sp, `${root}/Dropped`)).delete();
    await add(sp, root, 'Dropped/');
    await add(sp, root, 'Dropped/fresh3.txt');
    await bobSees('Deleted scopes', ['Binned', 'Closed', 'Dropped', 'Open', 'fresh.txt', 'fresh2.txt', 'fresh3.txt', 'open.txt'], 'after the folder\'s item was deleted');
  });

  it('breaking and resetting a folder\'s inheritance apply to what is inside it at the next request', async () => {
    const root = await library(sp, 'Broken scopes', ['Closed/', 'Closed/secret.txt', 'Open/', 'Open/open.txt']);
    const list = sp.web.lists.getByTitle('Broken scopes');
    const closed = list.items.getById(await folderItemId(sp, `${root}/Closed`));
    const open = list.items.getById(await folderItemId(sp, `${root}/Open`));
    const openFile = await fileItemId(sp, `${root}/Open/open.txt`);
    await closed.breakRoleInheritance(false, false);
    await bobSees('Broken scopes', ['Open', 'open.txt'], 'one folder closed');

    await open.breakRoleInheritance(false, false);
    await bobSees('Broken scopes', [], 'the second folder closed');
    await bobReads('Broken scopes', openFile, 403, 'the second folder closed');

    await open.resetRoleInheritance();
    await bobSees('Broken scopes', ['Open', 'open.txt'], 'the second folder inherits again');
    await bobReads('Broken scopes', openFile, 200, 'the second folder inherits again');
    await closed.resetRoleInheritance();
    await bobSees('Broken scopes', ['Closed', 'Open', 'open.txt', 'secret.txt'], 'both inherit again');
  });
});

describe(`a member's item read on a list with unique items or folders runs no read of them (${backend})`, () => {
  installStatementRecorder();
  const spemu = useTestServer();

  /** The fewest statements of five reads of `items(id)` as Bob, after three to warm identity, plans and metadata (a background poll may fall into one). */
  async function statementsPerRead(site: string, title: string, id: number): Promise<number> {
    for (let i = 0; i < 3; i++) assert.equal((await asBob(site, title, `items(${id})`)).status, 200);
    let fewest = Infinity;
    for (let i = 0; i < 5; i++) {
      const seen = await statementsOf(async () => { assert.equal((await asBob(site, title, `items(${id})`)).status, 200); });
      fewest = Math.min(fewest, seen.length);
    }
    return fewest;
  }

  it('a list with items only the owner sees: as many statements as its inheriting twin (none on SQLite, where the item row is kept; 2 on PostgreSQL)', async (t) => {
    const site = spemu.server.site('/sites/dev');
    const sp = pnpFor(site);
    const counts: number[] = [];
    for (const [title, guarded] of [['Plain twin', false], ['Guarded twin', true]] as const) {
      const list = (await sp.web.lists.ensure(title, '', 100)).list;
      for (let i = 0; i < 4; i++) await list.items.add({ Title: `item ${i}` });
      const all = (await list.items.select('Id')()).map((i: { Id: number }) => i.Id).sort((a: number, b: number) => a - b);
      if (guarded) for (const id of all.slice(1)) await list.items.getById(id).breakRoleInheritance(false, false);
      counts.push(await statementsPerRead(site, title, all[0]!));
    }
    t.diagnostic(`statements per item read: inheriting ${counts[0]}, with hidden items ${counts[1]}`);
    assert.equal(counts[1], counts[0]);
    // SQLite answers a repeated read of the row from memory (store/sql/kept-rows.ts); a read of the
    // folder scopes or of the item's folder would still be a statement, so the twins still differ if one is made.
    assert.equal(counts[0], backend === 'sqlite' ? 0 : 2);
  });

  it('a library with a closed folder: as many statements as its inheriting twin (its folder scopes and the item\'s folder come from the cache)', async (t) => {
    const site = spemu.server.site('/sites/dev');
    const sp = pnpFor(site);
    const counts: number[] = [];
    for (const [title, closed] of [['Plain library twin', false], ['Closed library twin', true]] as const) {
      const root = await library(sp, title, ['Docs/', 'Docs/a.txt', 'Closed/', 'Closed/secret.txt']);
      if (closed) await sp.web.lists.getByTitle(title).items.getById(await folderItemId(sp, `${root}/Closed`)).breakRoleInheritance(false, false);
      counts.push(await statementsPerRead(site, title, await fileItemId(sp, `${root}/Docs/a.txt`)));
    }
    t.diagnostic(`statements per item read: inheriting ${counts[0]}, with a closed folder ${counts[1]}`);
    // Uncached, the folder scopes were one more read per request, and the item's folder (read
    // where the permission is checked, before the item is) another until it was kept with them.
    assert.equal(counts[1], counts[0], `${counts[1]} statements with a closed folder, ${counts[0]} without`);
    assert.equal(counts[0], backend === 'sqlite' ? 0 : 2);
  });
});
