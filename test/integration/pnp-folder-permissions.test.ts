// Folders with unique permissions through an unmodified @pnp/sp 4.x client (issue #14): what
// is inside a folder answers by the folder's permissions (and its parent folders'), not the
// list's — in every listing (items, CAML, RenderListDataAsStream, a folder's Files and Folders,
// getChanges), when read alone, at its URL and through download.aspx, and when written.
// Requests act as the owner (Alice) unless a user's credentials are given; Bob is a member,
// Erin holds no role on the site.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/sharing/index.js';
import '@pnp/sp/views/index.js';
import { SharingRole } from '@pnp/sp/sharing/index.js';
import { demoBasic, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

const BOB = 'bob@contoso.onmicrosoft.com';
const ERIN = 'erin@contoso.onmicrosoft.com';
const login = (upn: string) => `i:0#.f|membership|${upn}`;
const basic = demoBasic;
const READ = 1073741826;
const EDIT = 1073741830;

describe('PnPjs folders with unique permissions against spemu', () => {
  const spemu = usePnpSite();

  /** A user's client, with a request digest for writes. */
  const as = (upn: string): Promise<SPFI> => pnpAsDemoUser(spemu.site, upn);

  /** A library with folders and files as `paths` says (a path ending in / is a folder); its root URL. */
  async function library(title: string, paths: string[]): Promise<string> {
    const { list } = await spemu.sp.web.lists.ensure(title, '', 101);
    const root = (await list.rootFolder.select('ServerRelativeUrl')()).ServerRelativeUrl;
    for (const path of paths) {
      const slash = path.replace(/\/$/, '').lastIndexOf('/');
      const parent = spemu.sp.web.getFolderByServerRelativePath(slash < 0 ? root : `${root}/${path.slice(0, slash)}`);
      const name = path.replace(/\/$/, '').slice(slash + 1);
      if (path.endsWith('/')) await parent.folders.addUsingPath(name);
      else await parent.files.addUsingPath(name, `content of ${name}`);
    }
    return root;
  }

  const folderItemId = async (url: string) => ((await spemu.sp.web.getFolderByServerRelativePath(url).listItemAllFields.select('Id')()) as { Id: number }).Id;
  const names = async (client: SPFI, title: string) =>
    (await client.web.lists.getByTitle(title).items.select('FileLeafRef')()).map((i: any) => i.FileLeafRef as string).sort();

  it('a folder only Alice may see: hidden from a member with everything in it, in every listing, alone, at its URL and in getChanges', async () => {
    const root = await library('Board library', ['Closed/', 'Closed/secret.txt', 'Closed/Inner/', 'Closed/Inner/deep.txt', 'Closed/ForBob/', 'Closed/ForBob/bob.txt', 'Open/', 'Open/open.txt', 'root.txt']);
    const list = spemu.sp.web.lists.getByTitle('Board library');
    const start = (await list.select('CurrentChangeToken')() as any).CurrentChangeToken;
    await list.items.getById(await folderItemId(`${root}/Closed`)).breakRoleInheritance(false, false);
    // A folder inside the closed one given back to Bob: what is in it he sees, though not its parent.
    const forBob = list.items.getById(await folderItemId(`${root}/Closed/ForBob`));
    await forBob.breakRoleInheritance(false, false);
    const bobRow = await spemu.sp.web.ensureUser(login(BOB));
    await forBob.roleAssignments.add(bobRow.Id, READ);
    await spemu.sp.web.getFileByServerRelativePath(`${root}/Closed/Inner/deep.txt`).setContent('changed');
    await spemu.sp.web.getFileByServerRelativePath(`${root}/Open/open.txt`).setContent('changed');

    assert.deepEqual(await names(spemu.sp, 'Board library'), ['Closed', 'ForBob', 'Inner', 'Open', 'bob.txt', 'deep.txt', 'open.txt', 'root.txt', 'secret.txt']);
    const bob = await as(BOB);
    const expected = ['ForBob', 'Open', 'bob.txt', 'open.txt', 'root.txt'];
    assert.deepEqual(await names(bob, 'Board library'), expected, 'items: the closed folder and all below it left out, but the folder given to Bob');
    const bobList = bob.web.lists.getByTitle('Board library');
    const nameOf = new Map((await list.items.select('Id', 'FileLeafRef')()).map((i: any) => [i.Id as number, i.FileLeafRef as string]));
    const caml = await bobList.getItemsByCAMLQuery({ ViewXml: '<View Scope="RecursiveAll"><Query /></View>' });
    assert.deepEqual(caml.map((i: any) => nameOf.get(i.Id)).sort(), expected, 'getItemsByCAMLQuery');
    const rendered = await bobList.renderListDataAsStream({ ViewXml: '<View Scope="RecursiveAll"><RowLimit>100</RowLimit></View>' });
    assert.deepEqual(rendered.Row.map((r: any) => r.FileLeafRef).sort(), expected, 'RenderListDataAsStream');
    const inClosed = await bobList.renderListDataAsStream({ ViewXml: '<View Scope="RecursiveAll"><RowLimit>100</RowLimit></View>', FolderServerRelativeUrl: `${root}/Closed` });
    assert.deepEqual(inClosed.Row.map((r: any) => r.FileLeafRef).sort(), ['ForBob', 'bob.txt'], 'RenderListDataAsStream of the closed folder: only what was given back');
    const filtered = await bobList.items.select('FileLeafRef').filter(`startswith(FileLeafRef, 'd') or startswith(FileLeafRef, 'o')`)();
    assert.deepEqual(filtered.map((i: any) => i.FileLeafRef).sort(), ['Open', 'open.txt'], 'with a $filter of its own');

    // The default view (the root folder: Closed, Open, root.txt) rendered, a row each.
    const rows = async (client: SPFI) => ((await client.web.lists.getByTitle('Board library').defaultView.renderAsHtml()).match(/<td>/g) ?? []).length;
    assert.deepEqual([await rows(spemu.sp), await rows(bob)], [6, 4], 'renderAsHtml: two columns a row, the closed folder\'s row for Alice only');

    // Each item's RoleAssignments, expanded on a page: what is inside the closed folder has its assignments.
    const alice = await spemu.sp.web.currentUser();
    // (Selecting no document column: where each item is must still be read.)
    const expanded = await list.items.select('Id', 'RoleAssignments').expand('RoleAssignments')();
    const holders = new Map(expanded.map((i: any) => [nameOf.get(i.Id)!, i.RoleAssignments.map((a: any) => a.PrincipalId as number).sort()]));
    assert.deepEqual([holders.get('secret.txt'), holders.get('deep.txt'), holders.get('bob.txt')], [[alice.Id], [alice.Id], [alice.Id, bobRow.Id].sort()]);
    assert.ok(holders.get('open.txt')!.length >= 3, 'the rest inherit the site\'s groups');

    // A folder's listings.
    assert.deepEqual((await bob.web.getFolderByServerRelativePath(`${root}/Open`).files()).map((f) => f.Name), ['open.txt']);
    assert.deepEqual((await bob.web.getFolderByServerRelativePath(root).folders()).map((f) => f.Name).filter((n) => n !== 'Forms'), ['Open']);
    assert.deepEqual((await bob.web.getFolderByServerRelativePath(root).expand('Folders').select('Folders/Name')() as any).Folders.map((f: any) => f.Name).filter((n: string) => n !== 'Forms'), ['Open'], 'Folders expanded');
    assert.equal((await failure(bob.web.getFolderByServerRelativePath(`${root}/Closed`).files())).status, 403, 'the closed folder\'s files');
    assert.equal((await failure(bob.web.getFolderByServerRelativePath(`${root}/Closed/Inner`).files())).status, 403, 'a folder inside inherits the closed one');
    assert.deepEqual((await bob.web.getFolderByServerRelativePath(`${root}/Closed/ForBob`).files()).map((f) => f.Name), ['bob.txt']);
    assert.deepEqual((await spemu.sp.web.getFolderByServerRelativePath(`${root}/Closed`).files()).map((f) => f.Name), ['secret.txt'], 'Alice sees it');

    // Alone, at its URL, through download.aspx.
    for (const path of ['Closed/secret.txt', 'Closed/Inner/deep.txt']) {
      assert.equal((await failure(bob.web.getFileByServerRelativePath(`${root}/${path}`).getText())).status, 403, path);
      assert.equal((await fetch(`${new URL(spemu.site).origin}${encodeURI(`${root}/${path}`)}`, { headers: { Authorization: basic(BOB) } })).status, 403, `${path} at its URL`);
      const download = `${spemu.site}/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent(`${root}/${path}`)}`;
      assert.equal((await fetch(download, { headers: { Authorization: basic(BOB) } })).status, 403, `${path} through download.aspx`);
    }
    assert.equal((await failure(bobList.items.getById(await folderItemId(`${root}/Closed`))())).status, 403, 'the folder\'s item');
    assert.equal(await bob.web.getFileByServerRelativePath(`${root}/Closed/ForBob/bob.txt`).getText(), 'content of bob.txt');
    assert.equal((await fetch(`${new URL(spemu.site).origin}${encodeURI(`${root}/Closed/ForBob/bob.txt`)}`, { headers: { Authorization: basic(BOB) } })).status, 200);
    assert.equal(await spemu.sp.web.getFileByServerRelativePath(`${root}/Closed/secret.txt`).getText(), 'content of secret.txt');
    assert.equal((await failure(bob.web.getFileByServerRelativePath(`${root}/Closed/secret.txt`).copyByPath(`${root}/Open/stolen.txt`, false))).status, 403, 'nor copied out');
    const util = await fetch(`${spemu.site}/_api/SP.MoveCopyUtil.CopyFileByPath()`, {
      method: 'POST', headers: { Authorization: basic(BOB), 'X-RequestDigest': ((await (await fetch(`${spemu.site}/_api/contextinfo`, { method: 'POST', headers: { Authorization: basic(BOB), Accept: 'application/json;odata=nometadata' } })).json()) as any).FormDigestValue, Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' },
      body: JSON.stringify({ srcPath: { DecodedUrl: `${root}/Closed/secret.txt` }, destPath: { DecodedUrl: `${root}/Open/stolen.txt` } }),
    });
    assert.equal(util.status, 403, 'nor through SP.MoveCopyUtil');
    assert.deepEqual((await spemu.sp.web.getFolderByServerRelativePath(`${root}/Open`).files()).map((f) => f.Name), ['open.txt']);

    // getChanges leaves out the changes of what Bob may not see.
    const deepId = ((await spemu.sp.web.getFileByServerRelativePath(`${root}/Closed/Inner/deep.txt`).listItemAllFields.select('Id')()) as { Id: number }).Id;
    const openId = ((await spemu.sp.web.getFileByServerRelativePath(`${root}/Open/open.txt`).listItemAllFields.select('Id')()) as { Id: number }).Id;
    const changed = async (client: SPFI) => (await client.web.lists.getByTitle('Board library').getChanges({ ChangeTokenStart: start, Item: true, Update: true }) as Array<{ ItemId: number }>).map((c) => c.ItemId);
    assert.ok((await changed(spemu.sp)).includes(deepId), 'Alice sees the change inside the closed folder');
    const bobChanges = await changed(bob);
    assert.ok(bobChanges.includes(openId) && !bobChanges.includes(deepId), `Bob sees only the open file's change: ${JSON.stringify(bobChanges)}`);
  });

  it('a folder Bob may only read: files in it and in its subfolders read, adding, changing and deleting refused', async () => {
    const root = await library('Read-only library', ['Reference/', 'Reference/guide.txt', 'Reference/Sub/', 'Reference/Sub/deep.txt', 'Work/']);
    const list = spemu.sp.web.lists.getByTitle('Read-only library');
    const folder = list.items.getById(await folderItemId(`${root}/Reference`));
    await folder.breakRoleInheritance(true, false);
    const members = await spemu.sp.web.associatedMemberGroup();
    await folder.roleAssignments.remove(members.Id, EDIT);
    const bobRow = await spemu.sp.web.ensureUser(login(BOB));
    await folder.roleAssignments.add(bobRow.Id, READ);

    const bob = await as(BOB);
    assert.deepEqual(await names(bob, 'Read-only library'), ['Reference', 'Sub', 'Work', 'deep.txt', 'guide.txt']);
    assert.equal(await bob.web.getFileByServerRelativePath(`${root}/Reference/Sub/deep.txt`).getText(), 'content of deep.txt');
    for (const dir of ['Reference', 'Reference/Sub']) {
      const added = await failure(bob.web.getFolderByServerRelativePath(`${root}/${dir}`).files.addUsingPath('new.txt', 'x'));
      assert.equal(added.status, 403, `adding a file to ${dir}`);
      assert.equal(added.code, '-2147024891, System.UnauthorizedAccessException');
      assert.equal((await failure(bob.web.getFolderByServerRelativePath(`${root}/${dir}`).folders.addUsingPath('New folder'))).status, 403, `adding a folder to ${dir}`);
    }
    // Named from somewhere Bob may write: a path below it, a server-relative URL, the web's folders.
    const work = bob.web.getFolderByServerRelativePath(`${root}/Work`);
    assert.equal((await failure(work.files.addUsingPath(`${root}/Reference/new.txt`, 'x'))).status, 403, 'a file by URL from an open folder');
    assert.equal((await failure(bob.web.getFolderByServerRelativePath(root).files.addUsingPath('Reference/Sub/new.txt', 'x'))).status, 403, 'a file by a path below the root folder');
    assert.equal((await failure(work.folders.addUsingPath(`${root}/Reference/New folder`))).status, 403, 'a folder by URL from an open folder');
    assert.equal((await failure(bob.web.folders.addUsingPath(`${root}/Reference/Sub/New folder`))).status, 403, 'a folder through the web\'s folders');
    const deep = bob.web.getFileByServerRelativePath(`${root}/Reference/Sub/deep.txt`);
    assert.equal((await failure(deep.setContent('no'))).status, 403, 'changing a file');
    assert.equal((await failure(deep.listItemAllFields.select('Id')().then((i: any) => bob.web.lists.getByTitle('Read-only library').items.getById(i.Id).update({ Title: 'no' })))).status, 403, 'changing its item');
    assert.equal((await failure(deep.delete())).status, 403, 'deleting it');
    const bobLibrary = bob.web.lists.getByTitle('Read-only library');
    assert.equal((await failure(bobLibrary.addValidateUpdateItemUsingPath([{ FieldName: 'Title', FieldValue: 'x' }], `${root}/Reference/Sub`, false, '', { leafName: 'Made here', objectType: 1 }))).status, 403, 'a folder made there through the form');
    await bob.web.getFolderByServerRelativePath(`${root}/Work`).files.addUsingPath('draft.txt', 'draft');
    assert.equal((await failure(bob.web.getFileByServerRelativePath(`${root}/Work/draft.txt`).moveByPath(`${root}/Reference/draft.txt`, false))).status, 403, 'moved into it');
    assert.equal((await failure(bob.web.getFileByServerRelativePath(`${root}/Work/draft.txt`).copyByPath(`${root}/Reference/Sub/draft.txt`, false))).status, 403, 'copied into it');
    assert.equal((await failure(deep.moveByPath(`${root}/Work/deep.txt`, false))).status, 403, 'moved out of it');
    await deep.copyByPath(`${root}/Work/deep copy.txt`, false);
    assert.equal(await bob.web.getFileByServerRelativePath(`${root}/Work/deep copy.txt`).getText(), 'content of deep.txt', 'but copied out of it, as reading it is allowed');
    assert.equal(await spemu.sp.web.getFileByServerRelativePath(`${root}/Reference/Sub/deep.txt`).getText(), 'content of deep.txt', 'unchanged');
    assert.deepEqual((await spemu.sp.web.getFolderByServerRelativePath(`${root}/Reference`).files()).map((f) => f.Name), ['guide.txt'], 'nothing added');
    assert.deepEqual((await spemu.sp.web.getFolderByServerRelativePath(`${root}/Reference/Sub`).folders()).map((f) => f.Name), []);
    // A file of its own that Bob may not see, in a folder he may write: not replaced by an add that overwrites.
    await spemu.sp.web.getFolderByServerRelativePath(`${root}/Work`).files.addUsingPath('locked.txt', 'alice only');
    await spemu.sp.web.getFileByServerRelativePath(`${root}/Work/locked.txt`).listItemAllFields.select('Id')()
      .then((i: any) => list.items.getById(i.Id).breakRoleInheritance(false, false));
    assert.equal((await failure(work.files.addUsingPath('locked.txt', 'mine', { Overwrite: true }))).status, 403, 'overwriting a file he may not edit');
    assert.equal(await spemu.sp.web.getFileByServerRelativePath(`${root}/Work/locked.txt`).getText(), 'alice only');
    // Elsewhere in the library Bob still writes as a member.
    await bob.web.getFolderByServerRelativePath(`${root}/Work`).files.addUsingPath('mine.txt', 'mine');
    assert.equal(await spemu.sp.web.getFileByServerRelativePath(`${root}/Work/mine.txt`).getText(), 'mine');
  });

  it('a folder shared with a user who sees nothing else of the list: its files and subfolders, and nothing more', async () => {
    const root = await library('Shared folder library', ['Team/', 'Team/plan.txt', 'Team/Drafts/', 'Team/Drafts/draft.txt', 'Other/', 'Other/other.txt', 'top.txt']);
    const result = await spemu.sp.web.getFolderByServerRelativePath(`${root}/Team`).shareWith(login(ERIN), SharingRole.View);
    assert.equal(result.ErrorMessage, null);

    const erin = await as(ERIN);
    // The list's own items collection needs View Items on the list (docs/compatibility.md): she
    // reaches what was shared through the folder.
    assert.deepEqual((await erin.web.getFolderByServerRelativePath(`${root}/Team`).files()).map((f) => f.Name), ['plan.txt']);
    assert.deepEqual((await erin.web.getFolderByServerRelativePath(`${root}/Team`).folders()).map((f) => f.Name), ['Drafts']);
    assert.equal(await erin.web.getFileByServerRelativePath(`${root}/Team/Drafts/draft.txt`).getText(), 'content of draft.txt');
    assert.equal((await fetch(`${spemu.site}/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent(`${root}/Team/plan.txt`)}`, { headers: { Authorization: basic(ERIN) } })).status, 200);
    assert.equal((await failure(erin.web.getFileByServerRelativePath(`${root}/Other/other.txt`).getText())).status, 403);
    assert.equal((await failure(erin.web.getFolderByServerRelativePath(`${root}/Team`).files.addUsingPath('x.txt', 'x'))).status, 403, 'View is read only');

    await spemu.sp.web.getFolderByServerRelativePath(`${root}/Team`).unshare();
    assert.deepEqual(await failure(erin.web.getFileByServerRelativePath(`${root}/Team/plan.txt`).getText()).then((f) => f.status), 403, 'unshared');
  });
});
