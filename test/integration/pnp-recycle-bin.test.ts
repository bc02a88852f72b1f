// The recycle bin through an unmodified @pnp/sp 4.x client (web.recycleBin, site.recycleBin,
// getById, restore, delete, moveToSecondStage and the collection's *All methods) and the requests
// CLI for Microsoft 365 sends (site/RecycleBin?$filter=…, RestoreByIds, DeleteByIds,
// GetRecycleBinItems(…)/RestoreAll): what a restore gives back (id, GUID, values, versions,
// attachments, bytes, folder, contents), who sees and may do what, bad ids, and the wire in
// verbose and nometadata.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spfi } from '@pnp/sp';
import '@pnp/sp/recycle-bin/index.js';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/attachments/index.js';
import '@pnp/sp/subscriptions/index.js';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';
import '../helpers/pnp-file-types.ts';
import '../helpers/pnp-recycle-bin-types.ts';
import '../helpers/pnp-subscription-types.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const SECRET = 'pnp-recycle-bin-secret-0123456789-abcdef';
const BOB = 'bob@contoso.onmicrosoft.com'; // a member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev

type BinItem = {
  Id: string; Title: string; LeafName: string; DirName: string; ItemType: number; ItemState: number; Size: number;
  DeletedByName: string; DeletedByEmail: string; AuthorName: string; AuthorEmail: string; DeletedDate: string; DeletedDateLocalFormatted: string;
  DirNamePath: { DecodedUrl: string }; LeafNamePath: { DecodedUrl: string };
};

describe('PnPjs recycle bin against spemu', () => {
  const spemu = usePnpSite('/sites/dev', { tokenSecret: SECRET });
  const as = async (upn: string) => pnpFor(spemu.site, { Authorization: await bearerFor(SECRET, upn) });
  const webBin = async () => await spemu.sp.web.recycleBin() as unknown as BinItem[];
  const siteBin = async () => await spemu.sp.site.recycleBin() as unknown as BinItem[];
  const json = async (path: string, init: RequestInit & { accept?: string; upn?: string } = {}) => {
    const headers: Record<string, string> = { Accept: init.accept ?? ACCEPT.nometadata };
    if (init.upn) headers.Authorization = await bearerFor(SECRET, init.upn);
    if (init.body) headers['Content-Type'] = 'application/json';
    const r = await fetch(`${spemu.site}/_api/${path}`, { method: init.method ?? 'GET', headers, body: init.body ?? null });
    return { status: r.status, body: await r.json() as any };
  };

  it('a recycled list item: its entry (type 3, leaf <id>_.000), restored with its id, GUID, values, versions and attachments', async () => {
    const sp = spemu.sp;
    await sp.web.lists.add('Bin Tasks', '', 100, false, { EnableVersioning: true });
    const list = sp.web.lists.getByTitle('Bin Tasks');
    const { Id: id } = await list.items.add({ Title: 'first' });
    await list.items.getById(id).update({ Title: 'second' });
    await list.items.getById(id).attachmentFiles.add('note.txt', 'attached bytes');
    const read = async () => {
      const { GUID: guid, Title, OData__UIVersionString: version } = await list.items.getById(id).select('GUID', 'Title', 'OData__UIVersionString')() as Record<string, string>;
      return { guid, Title, version };
    };
    const before = await read();
    const versionsBefore = (await list.items.getById(id).versions()).length;

    const binId = await list.items.getById(id).recycle();
    assert.match(binId, GUID);
    assert.equal((await failure(list.items.getById(id)())).status, 404);
    const entry = (await webBin()).find((e) => e.Id === binId)!;
    assert.ok(entry, 'the web bin lists it');
    assert.equal(entry.ItemType, 3);
    assert.equal(entry.ItemState, 1);
    assert.equal(entry.Title, 'second');
    assert.equal(entry.LeafName, `${id}_.000`);
    assert.equal(entry.DirName, 'sites/dev/Lists/Bin Tasks');
    assert.equal(entry.DirNamePath.DecodedUrl, 'sites/dev/Lists/Bin Tasks');
    assert.equal(entry.LeafNamePath.DecodedUrl, `${id}_.000`);
    assert.ok(entry.DeletedByName.length > 0 && entry.DeletedByEmail.includes('@'));
    assert.equal(entry.AuthorName, entry.DeletedByName);
    assert.match(entry.DeletedDate, /^\d{4}-\d\d-\d\dT/);
    assert.match(entry.DeletedDateLocalFormatted, /^\d+\/\d+\/\d{4} \d+:\d\d [AP]M$/);
    const one = await sp.web.recycleBin.getById(binId)() as unknown as BinItem;
    assert.equal(one.Id, binId);

    await sp.web.recycleBin.getById(binId).restore();
    assert.deepEqual(await read(), before, 'same id, GUID, values and version');
    assert.equal((await list.items.getById(id).versions()).length, versionsBefore, 'its history came back');
    const attachments = await list.items.getById(id).attachmentFiles();
    assert.deepEqual(attachments.map((a) => a.FileName), ['note.txt']);
    assert.equal(await list.items.getById(id).attachmentFiles.getByName('note.txt').getText(), 'attached bytes');
    assert.equal((await webBin()).some((e) => e.Id === binId), false, 'gone from the bin');
    assert.equal((await failure(sp.web.recycleBin.getById(binId)())).status, 404);
    // A new item still gets a new id: the restored one is not handed out again.
    const { Id: next } = await list.items.add({ Title: 'next' });
    assert.ok(next > id);
  });

  it('a recycled file keeps its bytes and versions; restored into its folder, or the folder made again when it is gone', async () => {
    const sp = spemu.sp;
    await sp.web.lists.add('Bin Docs', '', 101, false, { EnableVersioning: true });
    const root = sp.web.getFolderByServerRelativePath('/sites/dev/Bin Docs');
    await root.folders.addUsingPath('Reports');
    const folder = sp.web.getFolderByServerRelativePath('/sites/dev/Bin Docs/Reports');
    await folder.files.addUsingPath('q1.txt', 'version one');
    await folder.files.addUsingPath('q1.txt', 'version two, longer', { Overwrite: true });
    const file = sp.web.getFileByServerRelativePath('/sites/dev/Bin Docs/Reports/q1.txt');
    const { UniqueId: uniqueId } = await file.select('UniqueId')() as { UniqueId: string };
    const versions = (await file.versions()).length;
    assert.ok(versions >= 1);

    const binId = await file.recycle();
    const entry = (await webBin()).find((e) => e.Id === binId)!;
    assert.equal(entry.ItemType, 1);
    assert.equal(entry.LeafName, 'q1.txt');
    assert.equal(entry.Title, 'q1.txt');
    assert.equal(entry.DirName, 'sites/dev/Bin Docs/Reports');
    assert.equal(entry.Size, Buffer.byteLength('version two, longer'));

    // Its folder recycled too (empty now: one entry of its own), then the file restored: the folder is made again.
    const folderBin = await folder.recycle();
    await sp.web.recycleBin.getById(binId).restore();
    assert.equal(await file.getText(), 'version two, longer');
    assert.equal((await file.select('UniqueId')() as { UniqueId: string }).UniqueId, uniqueId);
    assert.equal((await file.versions()).length, versions);
    // The folder's own entry now finds its name taken: SharePoint's refusal, and it stays in the bin.
    const taken = await failure(sp.web.recycleBin.getById(folderBin).restore());
    assert.equal(taken.status, 400);
    assert.equal(taken.code, '-2130575257, Microsoft.SharePoint.SPException');
    assert.equal(taken.message, 'A file with this name already exists. To restore the file, rename the existing file and try again.');
    assert.ok((await webBin()).some((e) => e.Id === folderBin));

    // A file whose name was taken meanwhile: refused, nothing changed.
    const again = await file.recycle();
    await folder.files.addUsingPath('q1.txt', 'a newcomer');
    assert.equal((await failure(sp.web.recycleBin.getById(again).restore())).status, 400);
    assert.equal(await file.getText(), 'a newcomer');
    await file.delete();
    await sp.web.recycleBin.getById(again).restore();
    assert.equal(await file.getText(), 'version two, longer');
    await sp.web.recycleBin.getById(folderBin).delete();
  });

  it('a folder holding a file another user has checked out is not recycled: 423 at once (it once waited forever on SQLite), nothing moved', { timeout: 20_000 }, async () => {
    const sp = spemu.sp;
    await sp.web.lists.add('Bin Held', '', 101, false);
    await sp.web.getFolderByServerRelativePath('/sites/dev/Bin Held').folders.addUsingPath('Held');
    const held = sp.web.getFolderByServerRelativePath('/sites/dev/Bin Held/Held');
    await held.files.addUsingPath('held.txt', 'mine');
    const bob = await as(BOB);
    await bob.web.getFileByServerRelativePath('/sites/dev/Bin Held/Held/held.txt').checkout();
    const refused = await failure(held.recycle());
    assert.equal(refused.status, 423);
    // The server goes on answering, and the folder and its file are where they were.
    assert.equal((await json("web/lists/getbytitle('Bin Held')?$select=ItemCount")).body.ItemCount, 2);
    assert.equal((await webBin()).filter((e) => e.DirName.startsWith('sites/dev/Bin Held')).length, 0);
    await bob.web.getFileByServerRelativePath('/sites/dev/Bin Held/Held/held.txt').undoCheckout();
  });

  it('a recycled folder is one entry (type 5) and comes back with what it held', async () => {
    const sp = spemu.sp;
    await sp.web.lists.add('Bin Tree', '', 101, false);
    const root = sp.web.getFolderByServerRelativePath('/sites/dev/Bin Tree');
    await root.folders.addUsingPath('Top');
    const top = sp.web.getFolderByServerRelativePath('/sites/dev/Bin Tree/Top');
    await top.folders.addUsingPath('Inner');
    await top.files.addUsingPath('a.txt', 'AAA');
    await sp.web.getFolderByServerRelativePath('/sites/dev/Bin Tree/Top/Inner').files.addUsingPath('b.txt', 'BBBB');

    const binId = await top.recycle();
    const entries = (await webBin()).filter((e) => e.DirName.startsWith('sites/dev/Bin Tree'));
    assert.deepEqual(entries.map((e) => [e.Id, e.ItemType, e.LeafName, e.DirName]), [[binId, 5, 'Top', 'sites/dev/Bin Tree']]);
    assert.equal((await failure(sp.web.getFileByServerRelativePath('/sites/dev/Bin Tree/Top/a.txt').getText())).status, 404);

    await sp.web.recycleBin.getById(binId).restore();
    assert.equal(await sp.web.getFileByServerRelativePath('/sites/dev/Bin Tree/Top/a.txt').getText(), 'AAA');
    assert.equal(await sp.web.getFileByServerRelativePath('/sites/dev/Bin Tree/Top/Inner/b.txt').getText(), 'BBBB');
    assert.equal((await sp.web.lists.getByTitle('Bin Tree').select('ItemCount')()).ItemCount, 4);
  });

  it('second stage, delete for good, and the *All methods; the site bin shows both stages', async () => {
    const sp = spemu.sp;
    const { list } = await sp.web.lists.ensure('Bin Stages');
    const ids: string[] = [];
    for (const title of ['s1', 's2', 's3']) {
      const { Id } = await list.items.add({ Title: title });
      ids.push(await list.items.getById(Id).recycle());
    }
    await sp.web.recycleBin.getById(ids[0]!).moveToSecondStage();
    assert.equal((await webBin()).some((e) => e.Id === ids[0]), false, 'the web bin is the first stage');
    const inSite = (await siteBin()).find((e) => e.Id === ids[0])!;
    assert.equal(inSite.ItemState, 2);
    assert.equal((await failure(sp.site.recycleBin.getById(ids[0]!).moveToSecondStage())).status, 400, 'already in the second stage');
    await sp.site.recycleBin.getById(ids[0]!).restore();
    assert.equal((await list.items.filter("Title eq 's1'")()).length, 1, 'restored from the second stage');

    await sp.web.recycleBin.getById(ids[1]!).delete();
    assert.equal((await siteBin()).some((e) => e.Id === ids[1]), false, 'deleted for good');
    assert.equal((await failure(sp.site.recycleBin.getById(ids[1]!).restore())).status, 404);

    await sp.web.recycleBin.moveAllToSecondStage();
    assert.equal((await webBin()).length, 0);
    assert.ok((await siteBin()).some((e) => e.Id === ids[2] && e.ItemState === 2));
    await sp.site.recycleBin.restoreAll();
    assert.equal((await list.items.filter("Title eq 's3'")()).length, 1);
    assert.equal((await siteBin()).length, 0);

    const { Id: d } = await list.items.add({ Title: 'doomed' });
    const doomed = await list.items.getById(d).recycle();
    await sp.web.recycleBin.deleteAll();
    assert.equal((await siteBin()).some((e) => e.Id === doomed), false);
    const { Id: e } = await list.items.add({ Title: 'second-stage doomed' });
    const second = await list.items.getById(e).recycle();
    await sp.web.recycleBin.getById(second).moveToSecondStage();
    await sp.web.recycleBin.deleteAllSecondStageItems();
    assert.equal((await siteBin()).length, 0);
  });

  it('a recycled list: hidden from every look-up, restorable whole; its title taken meanwhile refuses', async () => {
    const sp = spemu.sp;
    const { list } = await sp.web.lists.ensure('Bin Whole List');
    await list.items.add({ Title: 'kept row' });
    const { Id: listId } = await list.select('Id')();
    const binId = await list.recycle();
    assert.match(binId, GUID);
    assert.equal((await failure(sp.web.lists.getByTitle('Bin Whole List')())).status, 404);
    assert.equal((await failure(sp.web.lists.getById(listId)())).status, 404);
    assert.equal((await sp.web.lists()).some((l) => l.Title === 'Bin Whole List'), false);
    const entry = (await webBin()).find((e) => e.Id === binId)!;
    assert.deepEqual([entry.ItemType, entry.Title, entry.LeafName, entry.DirName], [4, 'Bin Whole List', 'Bin Whole List', 'sites/dev/Lists']);

    const { list: usurper } = await sp.web.lists.ensure('Bin Whole List');
    assert.equal((await failure(sp.web.recycleBin.getById(binId).restore())).status, 500, "SharePoint's list-title error");
    await usurper.delete();
    await sp.web.recycleBin.getById(binId).restore();
    const back = sp.web.lists.getByTitle('Bin Whole List');
    assert.equal((await back.select('Id')()).Id, listId);
    assert.deepEqual((await back.items.select('Title')()).map((i) => i.Title), ['kept row']);

    // Deleted for good from the bin: the list goes, its tables with it.
    const again = await back.recycle();
    await sp.web.recycleBin.getById(again).delete();
    assert.equal((await siteBin()).some((e) => e.Id === again), false);
    const { created } = await sp.web.lists.ensure('Bin Whole List');
    assert.equal(created, true);
  });

  it("a subweb's bin: its own entries only, and gone with the subweb (a recycled list of it deleted too)", async () => {
    const sp = spemu.sp;
    const added = await sp.web.webs.add('Bin Sub', 'binsub') as unknown as { Url: string };
    const sub = spfi([sp.web, added.Url]);
    const { list } = await sub.web.lists.ensure('Sub List');
    const { Id } = await list.items.add({ Title: 'in the subweb' });
    const itemBin = await list.items.getById(Id).recycle();
    const { list: other } = await sub.web.lists.ensure('Sub Other');
    const listBin = await other.recycle();
    const subBin = (await sub.web.recycleBin() as unknown as BinItem[]).map((e) => e.Id).sort();
    assert.deepEqual(subBin, [itemBin, listBin].sort());
    assert.equal((await webBin()).some((e) => e.Id === itemBin), false, "the root web's bin is the root web's");
    assert.ok((await siteBin()).some((e) => e.Id === itemBin), 'the site bin holds every web\'s');
    await sub.web.delete();
    assert.equal((await siteBin()).some((e) => e.Id === itemBin || e.Id === listBin), false);
  });

  it('who sees and does what: own deletions in the web bin, managers see all, the site bin and second stage for administrators', async () => {
    const sp = spemu.sp;
    const { list } = await sp.web.lists.ensure('Bin Rights');
    const { Id: mine } = await list.items.add({ Title: "alice's" });
    const alices = await list.items.getById(mine).recycle();
    const bob = await as(BOB);
    const bobList = bob.web.lists.getByTitle('Bin Rights');
    const { Id: his } = await bobList.items.add({ Title: "bob's" });
    const bobs = await bobList.items.getById(his).recycle();

    const bobSees = (await bob.web.recycleBin() as unknown as BinItem[]).map((e) => e.Id);
    assert.ok(bobSees.includes(bobs));
    assert.equal(bobSees.includes(alices), false, "a member sees only their own deletions");
    assert.ok((await webBin()).some((e) => e.Id === bobs), 'an owner sees everyone’s');
    assert.equal((await failure(bob.web.recycleBin.getById(alices)())).status, 404);
    assert.equal((await failure(bob.site.recycleBin())).status, 403, 'the site bin is for site collection administrators');
    const secondView = await json('web/GetRecycleBinItems(rowLimit=10,itemState=2)', { upn: BOB });
    assert.equal(secondView.status, 403);
    assert.equal(secondView.body['odata.error'].code, '-2147024891, System.UnauthorizedAccessException');

    const dave = await as(DAVE);
    assert.equal((await failure(dave.web.recycleBin.restoreAll())).status, 403, 'a visitor may not restore');
    assert.equal((await failure(dave.web.recycleBin.getById(bobs)())).status, 404, "nor see another's deletion");
    assert.equal((await dave.web.recycleBin()).length, 0, 'a visitor deleted nothing');

    await bob.web.recycleBin.getById(bobs).moveToSecondStage();
    assert.equal((await failure(bob.site.recycleBin.getById(bobs).restore())).status, 403);
    await sp.site.recycleBin.getById(bobs).restore();
    await bob.web.recycleBin.restoreAll(); // nothing of his left: a no-op
    assert.ok((await webBin()).some((e) => e.Id === alices), "bob's RestoreAll left alice's deletion alone");
    await sp.web.recycleBin.getById(alices).restore();
  });

  it('bad ids: a malformed GUID is a 400, an unknown one a 404', async () => {
    const bad = await json("web/RecycleBin('not-a-guid')");
    assert.equal(bad.status, 400);
    assert.equal(bad.body['odata.error'].code, '-1, Microsoft.SharePoint.Client.InvalidClientQueryException');
    const unknown = await json("web/RecycleBin('0f0e0d0c-0b0a-0908-0706-050403020100')");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['odata.error'].code, '-2147024809, System.ArgumentException');
    assert.equal(unknown.body['odata.error'].message.value, 'Value does not fall within the expected range.');
    assert.equal((await json("web/RecycleBin('0f0e0d0c-0b0a-0908-0706-050403020100')/Restore", { method: 'POST' })).status, 404);
    assert.equal((await json('web/RecycleBin/DeleteByIds', { method: 'POST', body: JSON.stringify({ ids: 'nope' }) })).status, 400);
  });

  it('racing requests on one entry: exactly one restore (or delete) wins, the other is a 404, nothing doubled or lost', async () => {
    const sp = spemu.sp;
    const { list } = await sp.web.lists.ensure('Bin Races');
    const lib = sp.web.lists.getByTitle('Documents');
    for (let round = 0; round < 4; round++) {
      const { Id: id } = await list.items.add({ Title: `race ${round}` });
      const binId = await list.items.getById(id).recycle();
      const statuses = (await Promise.all([0, 1].map(() => json(`web/RecycleBin('${binId}')/Restore`, { method: 'POST' })))).map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 404], `round ${round}: one restore wins, the other finds nothing`);
      assert.equal((await list.items.filter(`Id eq ${id}`)()).length, 1);
    }
    // A restore racing the delete of its list: the list goes; the restore is done first or finds nothing (never a 500).
    for (let round = 0; round < 3; round++) {
      const { list: doomed } = await sp.web.lists.ensure(`Bin Race Doomed ${round}`);
      const { Id: listId } = await doomed.select('Id')();
      const { Id: id } = await doomed.items.add({ Title: 'doomed' });
      const binId = await doomed.items.getById(id).recycle();
      const [restore, drop] = await Promise.all([
        json(`web/RecycleBin('${binId}')/Restore`, { method: 'POST' }), fetch(`${spemu.site}/_api/web/lists(guid'${listId}')`, { method: 'DELETE', headers: { Accept: ACCEPT.nometadata, 'IF-MATCH': '*' } })]);
      assert.ok([200, 404].includes(restore.status), `round ${round}: restore ${restore.status} ${JSON.stringify(restore.body)}`);
      assert.equal(drop.status, 200);
      assert.equal((await failure(sp.web.lists.getById(listId)())).status, 404);
      assert.equal((await siteBin()).some((e) => e.Id === binId), false);
    }
    // A restore racing a delete for good: whichever wins, the file is either back with its bytes or gone with its entry.
    for (let round = 0; round < 4; round++) {
      const name = `race-${round}.txt`;
      await lib.rootFolder.files.addUsingPath(name, `bytes ${round}`, { Overwrite: true });
      const binId = await sp.web.getFileByServerRelativePath(`/sites/dev/Shared Documents/${name}`).recycle();
      const [restore, purge] = await Promise.all([
        json(`web/RecycleBin('${binId}')/Restore`, { method: 'POST' }), json(`web/RecycleBin('${binId}')`, { method: 'DELETE' })]);
      assert.ok([200, 404].includes(restore.status) && [200, 404].includes(purge.status), `round ${round}: ${restore.status}, ${purge.status}`);
      assert.equal((await siteBin()).some((e) => e.Id === binId), false);
      const file = sp.web.getFileByServerRelativePath(`/sites/dev/Shared Documents/${name}`);
      if (restore.status === 200) assert.equal(await file.getText(), `bytes ${round}`, 'a restored file has its bytes');
      else assert.equal((await failure(file())).status, 404);
    }
  });

  it('a list recycled by two racing requests: one entry, the other request a 404', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Bin Twice');
    const { Id: listId } = await list.select('Id')();
    const answers = await Promise.all([0, 1].map(() => json(`web/lists(guid'${listId}')/Recycle`, { method: 'POST' })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404]);
    const entries = (await siteBin()).filter((e) => e.Title === 'Bin Twice');
    assert.equal(entries.length, 1);
    await spemu.sp.web.recycleBin.getById(entries[0]!.Id).restore();
    assert.equal((await spemu.sp.web.lists.getById(listId).select('Title')()).Title, 'Bin Twice');

    // Two restores, then a restore and a delete for good, racing: one wins; a restored list stays, with its item.
    await spemu.sp.web.lists.getById(listId).items.add({ Title: 'kept through races' });
    for (let round = 0; round < 3; round++) {
      const binId = await spemu.sp.web.lists.getById(listId).recycle();
      const restores = await Promise.all([0, 1].map(() => json(`web/RecycleBin('${binId}')/Restore`, { method: 'POST' })));
      assert.deepEqual(restores.map((r) => r.status).sort(), [200, 404], `round ${round}: ${JSON.stringify(restores.map((r) => r.body))}`);
      const again = await spemu.sp.web.lists.getById(listId).recycle();
      const [restore, purge] = await Promise.all([
        json(`web/RecycleBin('${again}')/Restore`, { method: 'POST' }), json(`web/RecycleBin('${again}')`, { method: 'DELETE' })]);
      assert.ok([200, 404].includes(restore.status) && [200, 404].includes(purge.status), `round ${round}: ${restore.status}, ${purge.status}`);
      if (restore.status !== 200) break; // deleted for good: nothing left to race on
      const items = await spemu.sp.web.lists.getById(listId).items.select('Title')();
      assert.deepEqual(items.map((i) => i.Title), ['kept through races'], 'a restored list is not deleted by the losing delete');
    }
  });

  it('the wire: nometadata and verbose entities, CLI for Microsoft 365 requests, GetRecycleBinItems paging, the change log', async () => {
    const sp = spemu.sp;
    const { list } = await sp.web.lists.ensure('Bin Wire');
    const made: Array<{ id: number; bin: string }> = [];
    for (const title of ['w1', 'w2', 'w3']) {
      const { Id } = await list.items.add({ Title: title });
      made.push({ id: Id, bin: await list.items.getById(Id).recycle() });
    }
    const plain = await json(`web/RecycleBin('${made[0]!.bin}')`);
    assert.equal(plain.status, 200);
    assert.deepEqual(Object.keys(plain.body).sort(), ['AuthorEmail', 'AuthorName', 'DeletedByEmail', 'DeletedByName', 'DeletedDate', 'DeletedDateLocalFormatted',
      'DirName', 'DirNamePath', 'Id', 'ItemState', 'ItemType', 'LeafName', 'LeafNamePath', 'Size', 'Title']);
    const verbose = await json(`web/RecycleBin('${made[0]!.bin}')`, { accept: ACCEPT.verbose });
    assert.equal(verbose.body.d.__metadata.type, 'SP.RecycleBinItem');
    assert.ok(verbose.body.d.Author.__deferred.uri.endsWith('/Author'));
    assert.equal(verbose.body.d.DirNamePath.__metadata.type, 'SP.ResourcePath');
    const deletedBy = await json(`web/RecycleBin('${made[0]!.bin}')/DeletedBy`);
    assert.equal(deletedBy.body.Title, plain.body.DeletedByName);
    const expanded = await json(`web/RecycleBin?$expand=Author,DeletedBy&$select=Id,Author/Title,DeletedBy/Email&$filter=Id eq '${made[0]!.bin}'`);
    assert.deepEqual(expanded.body.value, [{ Author: { Title: plain.body.AuthorName }, DeletedBy: { Email: plain.body.DeletedByEmail }, Id: made[0]!.bin }]);

    // `spo site recyclebinitem list --type listItems`: the site bin filtered as it sends it.
    const listed = await json('site/RecycleBin?$filter=(ItemState eq 1) and (ItemType eq 3)');
    assert.ok(made.every((m) => listed.body.value.some((e: BinItem) => e.Id === m.bin)));
    const top = await json('web/RecycleBin?$top=1&$orderby=Title desc&$select=Title,Id');
    assert.deepEqual(Object.keys(top.body.value[0]).sort(), ['Id', 'Title']);

    // GetRecycleBinItems: newest first by DeletedDate, a page of two, then the rest after the last id.
    const page = await json("web/GetRecycleBinItems(rowLimit=2,isAscending=false,itemState=1,orderBy=1,pagingInfo='')");
    assert.deepEqual(page.body.value.map((e: BinItem) => e.Title).filter((t: string) => t.startsWith('w')), ['w3', 'w2']);
    const rest = await json(`web/GetRecycleBinItems(rowLimit=2,isAscending=false,itemState=1,orderBy=1,pagingInfo='id=${page.body.value[1].Id}')`);
    assert.ok(rest.body.value.some((e: BinItem) => e.Title === 'w1'));

    // RestoreByIds (`spo site recyclebinitem restore --ids`), answered with odata.null; then DeleteByIds and the second stage's RestoreAll.
    const restored = await json('site/RecycleBin/RestoreByIds', { method: 'POST', body: JSON.stringify({ ids: [made[0]!.bin] }) });
    assert.equal(restored.status, 200);
    assert.deepEqual(restored.body, { 'odata.null': true });
    assert.equal((await list.items.getById(made[0]!.id).select('Title')()).Title, 'w1');
    assert.equal((await json('web/recycleBin/MoveAllToSecondStage', { method: 'POST', body: JSON.stringify({ ids: [made[1]!.bin] }) })).status, 200);
    assert.equal((await json(`site/RecycleBin('${made[1]!.bin}')`)).body.ItemState, 2);
    assert.equal((await json(`site/RecycleBin('${made[2]!.bin}')`)).body.ItemState, 1, 'only the ids named moved');
    assert.equal((await json('site/GetRecycleBinItems(rowLimit=2000000000,itemState=2)/RestoreAll', { method: 'POST' })).status, 200);
    assert.equal((await list.items.getById(made[1]!.id).select('Title')()).Title, 'w2');
    assert.equal((await json('site/RecycleBin/DeleteByIds', { method: 'POST', body: JSON.stringify({ ids: [made[2]!.bin] }) })).status, 200);
    assert.equal((await json(`site/RecycleBin('${made[2]!.bin}')`)).status, 404);

    // The change log: a restore is a Restore (7) of the item.
    const changes = await list.getChanges({ Item: true, Restore: true, DeleteObject: true }) as Array<{ ChangeType: number; ItemId: number }>;
    const ofFirst = changes.filter((c) => c.ItemId === made[0]!.id).map((c) => c.ChangeType);
    assert.deepEqual(ofFirst, [3, 7]);
  });
});

describe('a restore notifies the list\'s webhooks as other item writes do', () => {
  const spemu = usePnpSite('/sites/dev', { webhookDelay: 0 });
  let receiver: Receiver;
  before(async () => { receiver = await startReceiver(); });
  after(async () => { await receiver.close(); });

  it('add, recycle and restore: one notification each, and the change log reads Add, DeleteObject, Restore', async () => {
    const sp = spemu.sp;
    const { Id: listId } = await sp.web.lists.add('Bin Watched', '', 100);
    const list = sp.web.lists.getById(listId);
    await list.subscriptions.add(`${receiver.url}/hook`, new Date(Date.now() + 86_400_000).toISOString());
    const { Id: id } = await list.items.add({ Title: 'watched' });
    await receiver.waitForNotifications(1);
    const binId = await list.items.getById(id).recycle();
    await receiver.waitForNotifications(2);
    await sp.web.recycleBin.getById(binId).restore();
    await receiver.waitForNotifications(3);
    assert.ok(receiver.notifications().every((n) => n.value[0]!.resource === listId));
    const changes = await list.getChanges({ Item: true, Add: true, DeleteObject: true, Restore: true }) as Array<{ ChangeType: number; ItemId: number }>;
    assert.deepEqual(changes.map((c) => [c.ChangeType, c.ItemId]), [[1, id], [3, id], [7, id]]);
  });
});
