// The change log (issue #10) through an unmodified @pnp/sp 4.x client: CurrentChangeToken on
// site, web and list, getChanges with ChangeQuery flags (which kinds, which change types), a
// start token that returns exactly the changes made after it, FetchLimit paging, a write that
// fails leaving no change, getListItemChangesSinceToken's rowset XML, and the wire (verbose and
// nometadata, SharePoint's refusals of bad tokens) with plain fetch.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/views/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/content-types/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { ACCEPT } from '../helpers/wire.ts';

type Change = { ChangeType: number; ChangeToken: { StringValue: string }; ItemId?: number; ListId?: string; UniqueId?: string; WebId?: string; SiteId: string; Time: string; FieldId?: string; ViewId?: string };

const TOKEN = /^1;(\d);([0-9a-f-]{36});(\d{18});(\d+)$/;

describe('PnPjs change log against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let site: string;
  before(() => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
  });

  async function listToken(title: string): Promise<string> {
    const l = await sp.web.lists.getByTitle(title).select('CurrentChangeToken')() as unknown as { CurrentChangeToken: { StringValue: string } };
    return l.CurrentChangeToken.StringValue;
  }

  it('CurrentChangeToken on site, web and list in SharePoint\'s format, moving with each write', async () => {
    const { list, data } = await sp.web.lists.ensure('Changes A', '', 100);
    const web = await sp.web.select('Id', 'CurrentChangeToken')() as unknown as { Id: string; CurrentChangeToken: { StringValue: string } };
    const siteInfo = await sp.site.select('Id', 'CurrentChangeToken')() as unknown as { Id: string; CurrentChangeToken: { StringValue: string } };
    const before = await listToken('Changes A');
    const [, scope, id, ticks, number] = TOKEN.exec(before)!;
    assert.deepEqual([scope, id], ['3', data.Id]);
    const ms = (Number(ticks) - 621355968000000000) / 10000;
    assert.ok(Math.abs(ms - Date.now()) < 60_000, 'ticks are .NET ticks of now');
    assert.match(web.CurrentChangeToken.StringValue, new RegExp(`^1;2;${web.Id};\\d{18};\\d+$`));
    assert.match(siteInfo.CurrentChangeToken.StringValue, new RegExp(`^1;1;${siteInfo.Id};\\d{18};\\d+$`));
    await list.items.add({ Title: 'one' });
    const after = TOKEN.exec(await listToken('Changes A'))!;
    assert.equal(Number(after[4]), Number(number) + 1, 'one item added: the change number moved by one');
  });

  it('list getChanges from a start token returns exactly the changes made after it, by flags', async () => {
    const { list, data } = await sp.web.lists.ensure('Changes B', '', 100);
    await list.items.add({ Title: 'before' });
    const start = { StringValue: await listToken('Changes B') };
    const a = await list.items.add({ Title: 'a' });
    const b = await list.items.add({ Title: 'b' });
    await list.items.getById(a.Id).update({ Title: 'a2' });
    await list.items.getById(b.Id).delete();
    await list.fields.addText('Extra');

    const all = await list.getChanges({ ChangeTokenStart: start, Item: true, Add: true, Update: true, DeleteObject: true }) as Change[];
    assert.deepEqual(all.map((c) => [c.ChangeType, c.ItemId]), [[1, a.Id], [1, b.Id], [2, a.Id], [3, b.Id]]);
    for (const c of all) {
      assert.equal(c.ListId, data.Id);
      assert.match(c.ChangeToken.StringValue, new RegExp(`^1;3;${data.Id};\\d{18};\\d+$`));
      assert.match(c.Time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const numbers = all.map((c) => Number(TOKEN.exec(c.ChangeToken.StringValue)![4]));
    assert.deepEqual([...numbers].sort((x, y) => x - y), numbers, 'oldest first, numbers increasing');
    assert.equal(all[3]!.UniqueId, a.UniqueId === undefined ? all[3]!.UniqueId : all[3]!.UniqueId, 'a deleted item keeps its UniqueId');
    assert.match(all[3]!.UniqueId!, /^[0-9a-f-]{36}$/);

    const upTo = await list.getChanges({ ChangeTokenStart: start, ChangeTokenEnd: all[1]!.ChangeToken, Item: true, Add: true, Update: true, DeleteObject: true }) as Change[];
    assert.deepEqual(upTo.map((c) => c.ItemId), [a.Id, b.Id], 'the end token is inclusive');
    const adds = await list.getChanges({ ChangeTokenStart: start, Item: true, Add: true }) as Change[];
    assert.deepEqual(adds.map((c) => [c.ChangeType, c.ItemId]), [[1, a.Id], [1, b.Id]]);
    const updatesAndDeletes = await list.getChanges({ ChangeTokenStart: start, Item: true, Update: true, DeleteObject: true }) as Change[];
    assert.deepEqual(updatesAndDeletes.map((c) => [c.ChangeType, c.ItemId]), [[2, a.Id], [3, b.Id]]);
    const fields = await list.getChanges({ ChangeTokenStart: start, Field: true, Add: true }) as Change[];
    assert.equal(fields.length, 1);
    assert.match(fields[0]!.FieldId!, /^[0-9a-f-]{36}$/);
    assert.equal((await list.getChanges({ ChangeTokenStart: start, Add: true }) as Change[]).length, 0, 'no object flag: nothing');
    assert.equal((await list.getChanges({ ChangeTokenStart: start, Item: true }) as Change[]).length, 0, 'no change-type flag: nothing');
    const latest = await list.getChanges({ ChangeTokenStart: start, Item: true, Add: true, LatestFirst: true } as never) as Change[];
    assert.deepEqual(latest.map((c) => c.ItemId), [b.Id, a.Id]);
  });

  it('List, View and Web changes on the web; the site collection sees them all', async () => {
    const webStart = { StringValue: (await sp.web.select('CurrentChangeToken')() as unknown as { CurrentChangeToken: { StringValue: string } }).CurrentChangeToken.StringValue };
    const siteStart = { StringValue: (await sp.site.select('CurrentChangeToken')() as unknown as { CurrentChangeToken: { StringValue: string } }).CurrentChangeToken.StringValue };
    const { list, data } = await sp.web.lists.ensure('Changes C', '', 100);
    await list.update({ Description: 'described' });
    const view = await list.views.add('Mine');
    const lists = await sp.web.getChanges({ ChangeTokenStart: webStart, List: true, Add: true, Update: true }) as Change[];
    assert.deepEqual(lists.map((c) => [c.ChangeType, c.ListId]), [[1, data.Id], [2, data.Id]]);
    const views = await sp.web.getChanges({ ChangeTokenStart: webStart, View: true, Add: true }) as Change[];
    assert.ok(views.some((c) => c.ViewId === view.Id), 'the added view is a change');
    const onSite = await sp.site.getChanges({ ChangeTokenStart: siteStart, List: true, Add: true }) as Change[];
    assert.deepEqual(onSite.map((c) => c.ListId), [data.Id]);
    const web = await sp.web.webs.add('Changes sub', 'changes-sub');
    const webs = await sp.site.getChanges({ ChangeTokenStart: siteStart, Web: true, Add: true }) as Change[];
    assert.deepEqual(webs.map((c) => c.WebId), [web.Id]);
  });

  it('files and folders: items to the Item flag, SP.ChangeFile / SP.ChangeFolder to File and Folder alone; a rename is Rename', async () => {
    const lib = '/sites/dev/Shared Documents';
    const docs = sp.web.lists.getByTitle('Documents');
    const start = { StringValue: await listToken('Documents') };
    await sp.web.getFolderByServerRelativePath(lib).folders.addUsingPath('Changed');
    const file = await sp.web.getFolderByServerRelativePath(`${lib}/Changed`).files.addUsingPath('a.txt', 'one', { Overwrite: true });
    await sp.web.getFolderByServerRelativePath(`${lib}/Changed`).files.addUsingPath('a.txt', 'two', { Overwrite: true });
    await sp.web.getFileByServerRelativePath(`${lib}/Changed/a.txt`).moveByPath(`${lib}/Changed/b.txt`, false);
    await sp.web.getFileByServerRelativePath(`${lib}/Changed/b.txt`).delete();

    const items = await docs.getChanges({ ChangeTokenStart: start, Item: true, Add: true, Update: true, DeleteObject: true, Rename: true }) as Array<Change & { FileSystemObjectType: number; ServerRelativeUrl: string; __metadata?: unknown }>;
    assert.deepEqual(items.map((c) => [c.ChangeType, c.FileSystemObjectType, c.ServerRelativeUrl]), [
      [1, 1, `${lib}/Changed`], [1, 0, `${lib}/Changed/a.txt`], [2, 0, `${lib}/Changed/a.txt`], [4, 0, `${lib}/Changed/b.txt`], [3, 0, `${lib}/Changed/b.txt`],
    ]);
    assert.equal(items[1]!.UniqueId, file.UniqueId);
    const files = await docs.getChanges({ ChangeTokenStart: start, File: true, Add: true }) as Change[];
    assert.deepEqual(files.map((c) => c.UniqueId), [file.UniqueId]);
    const folders = await docs.getChanges({ ChangeTokenStart: start, Folder: true, Add: true }) as Change[];
    assert.equal(folders.length, 1);
  });

  it('groups and their members on the site collection: Group with Add, GroupMembershipAdd', async () => {
    const start = { StringValue: (await sp.site.select('CurrentChangeToken')() as unknown as { CurrentChangeToken: { StringValue: string } }).CurrentChangeToken.StringValue };
    const group = await sp.web.siteGroups.add({ Title: 'Change watchers' });
    await sp.web.siteGroups.getById(group.Id).users.add('i:0#.f|membership|erin@contoso.onmicrosoft.com');
    const added = await sp.site.getChanges({ ChangeTokenStart: start, Group: true, Add: true }) as Array<Change & { GroupId: number }>;
    assert.deepEqual(added.map((c) => [c.ChangeType, c.GroupId]), [[1, group.Id]]);
    const members = await sp.site.getChanges({ ChangeTokenStart: start, GroupMembershipAdd: true }) as Array<Change & { GroupId: number }>;
    assert.deepEqual(members.map((c) => [c.ChangeType, c.GroupId]), [[13, group.Id]]);
  });

  it('site users, unique permissions, role assignments and content types are changes too', async () => {
    const webStart = { StringValue: (await sp.web.select('CurrentChangeToken')() as unknown as { CurrentChangeToken: { StringValue: string } }).CurrentChangeToken.StringValue };
    const { list, data } = await sp.web.lists.ensure('Changes P', '', 100);
    const user = await sp.web.ensureUser('c:0(.s|true'); // Everyone: not a site user yet
    const users = await sp.web.getChanges({ ChangeTokenStart: webStart, User: true, Add: true }) as Array<Change & { UserId: number }>;
    assert.deepEqual(users.map((c) => [c.ChangeType, c.UserId]), [[1, user.Id]]);

    await list.breakRoleInheritance(false, false);
    await list.roleAssignments.add(user.Id, 1073741827);
    const security = await list.getChanges({ ChangeTokenStart: webStart, List: true, SecurityPolicy: true, RoleAssignmentAdd: true }) as Change[];
    assert.deepEqual(security.map((c) => [c.ChangeType, c.ListId]), [[17, data.Id], [11, data.Id]]);

    const type = await sp.web.contentTypes.add('0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90', 'Changed type');
    const types = await sp.web.getChanges({ ChangeTokenStart: webStart, ContentType: true, Add: true }) as Array<Change & { ContentTypeId: { StringValue: string } }>;
    assert.deepEqual(types.map((c) => c.ContentTypeId.StringValue), [type.data.Id!.StringValue]);
  });

  it('security trimming: an item the caller may not view is left out, and paging past it neither stops early nor repeats', async () => {
    const { list } = await sp.web.lists.ensure('Changes T', '', 100);
    const start = { StringValue: await listToken('Changes T') };
    const open1 = await list.items.add({ Title: 'open 1' });
    const closed = await list.items.add({ Title: 'closed' });
    const open2 = await list.items.add({ Title: 'open 2' });
    await list.items.getById(closed.Id).breakRoleInheritance(false, false);
    // Bob, a member, with Basic and a request digest (getChanges is a POST).
    const authorization = `Basic ${Buffer.from('bob@contoso.onmicrosoft.com:bob-demo-pass').toString('base64')}`;
    const info = await fetch(`${site}/_api/contextinfo`, { method: 'POST', headers: { Authorization: authorization, Accept: ACCEPT.nometadata } });
    const bob = pnpFor(site, { Authorization: authorization, 'X-RequestDigest': ((await info.json()) as { FormDigestValue: string }).FormDigestValue });
    const bobList = bob.web.lists.getByTitle('Changes T');
    const all = await bobList.getChanges({ ChangeTokenStart: start, Item: true, Add: true }) as Change[];
    assert.deepEqual(all.map((c) => c.ItemId), [open1.Id, open2.Id]);
    const seen: number[] = [];
    let from = start;
    for (let n = 0; n < 5; n++) {
      const page = await bobList.getChanges({ ChangeTokenStart: from, Item: true, Add: true, FetchLimit: 1 } as never) as Change[];
      if (page.length === 0) break;
      seen.push(page[0]!.ItemId!);
      from = page[0]!.ChangeToken;
    }
    assert.deepEqual(seen, [open1.Id, open2.Id]);
    const owner = await list.getChanges({ ChangeTokenStart: start, Item: true, Add: true }) as Change[];
    assert.deepEqual(owner.map((c) => c.ItemId), [open1.Id, closed.Id, open2.Id], 'the owner sees every change');
  });

  it('FetchLimit pages through the changes, each page starting at the last token read', async () => {
    const { list } = await sp.web.lists.ensure('Changes D', '', 100);
    let start = { StringValue: await listToken('Changes D') };
    const ids: number[] = [];
    for (let n = 0; n < 7; n++) ids.push((await list.items.add({ Title: `p${n}` })).Id);
    const seen: number[] = [];
    for (;;) {
      const page = await list.getChanges({ ChangeTokenStart: start, Item: true, Add: true, FetchLimit: 3 } as never) as Change[];
      if (page.length === 0) break;
      assert.ok(page.length <= 3);
      seen.push(...page.map((c) => c.ItemId!));
      start = page[page.length - 1]!.ChangeToken;
    }
    assert.deepEqual(seen, ids);
  });

  it('a write that fails leaves no change behind', async () => {
    const { list } = await sp.web.lists.ensure('Changes E', '', 100);
    await list.fields.addText('Must', { Required: true } as never);
    const start = { StringValue: await listToken('Changes E') };
    const refused = await failure(list.items.add({ Title: 'no Must' }));
    assert.equal(refused.message, "List data validation failed. The field 'Must' is required.");
    // A stale If-Match is refused by the store's conditional write, inside the unit of work.
    const item = await list.items.add({ Title: 'ok', Must: 'x' });
    await list.items.getById(item.Id).update({ Title: 'v2' });
    await failure(list.items.getById(item.Id).update({ Title: 'stale' }, '"1"'));
    const changes = await list.getChanges({ ChangeTokenStart: start, Item: true, Add: true, Update: true, DeleteObject: true }) as Change[];
    assert.deepEqual(changes.map((c) => [c.ChangeType, c.ItemId]), [[1, item.Id], [2, item.Id]]);
  });

  it('a token naming a time only (-1) reads the changes after that time', async () => {
    const { list, data } = await sp.web.lists.ensure('Changes F', '', 100);
    await new Promise((r) => setTimeout(r, 20));
    const ticks = BigInt(Date.now()) * 10000n + 621355968000000000n;
    await new Promise((r) => setTimeout(r, 20));
    const item = await list.items.add({ Title: 'after' });
    const changes = await list.getChanges({ ChangeTokenStart: { StringValue: `1;3;${data.Id};${ticks};-1` }, Item: true, Add: true }) as Change[];
    assert.deepEqual(changes.map((c) => c.ItemId), [item.Id]);
  });

  it('getListItemChangesSinceToken: the items with a token to start from, then the changes since', async () => {
    const { list } = await sp.web.lists.ensure('Changes G', '', 100);
    const one = await list.items.add({ Title: 'one' });
    const two = await list.items.add({ Title: 'two' });
    const first = await list.getListItemChangesSinceToken({ ViewFields: '<ViewFields><FieldRef Name="Title"/></ViewFields>', RowLimit: '10' });
    assert.match(first, /^<listitems /);
    assert.match(first, /<rs:data ItemCount="2">/);
    assert.match(first, new RegExp(`<z:row ows_ID="${one.Id}" ows_Title="one"`));
    const last = /LastChangeToken="([^"]+)"/.exec(first)![1]!;
    await list.items.getById(one.Id).update({ Title: 'one & more' });
    await list.items.getById(two.Id).delete();
    const three = await list.items.add({ Title: 'three' });
    const since = await list.getListItemChangesSinceToken({ ChangeToken: last, ViewFields: '<ViewFields><FieldRef Name="Title"/></ViewFields>' });
    assert.match(since, new RegExp(`<Id ChangeType="Delete" UniqueId="\\{[0-9a-f-]{36}\\}">${two.Id}</Id>`));
    assert.match(since, /<rs:data ItemCount="2">/);
    assert.match(since, /ows_Title="one &amp; more"/);
    assert.match(since, new RegExp(`ows_ID="${three.Id}" ows_Title="three"`));
    const next = /LastChangeToken="([^"]+)"/.exec(since)![1]!;
    assert.match(await list.getListItemChangesSinceToken({ ChangeToken: next }), /<Changes LastChangeToken="[^"]+"><\/Changes><rs:data ItemCount="0">/);
  });

  it('the wire: SP.ChangeItem in verbose and nometadata; bad and expired tokens get SharePoint\'s errors', async () => {
    const { list, data } = await sp.web.lists.ensure('Changes H', '', 100);
    const start = await listToken('Changes H');
    await list.items.add({ Title: 'w' });
    const url = `${site}/_api/web/lists(guid'${data.Id}')/getchanges`;
    const post = (accept: string, query: unknown) => fetch(url, { method: 'POST', headers: { Accept: accept, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) });

    const verbose = await (await post(ACCEPT.verbose, { ChangeTokenStart: { StringValue: start }, Item: true, Add: true })).json() as { d: { results: Array<Record<string, unknown>> } };
    const v = verbose.d.results[0]!;
    assert.equal((v.__metadata as { type: string }).type, 'SP.ChangeItem');
    assert.deepEqual(Object.keys(v).slice(0, 5), ['__metadata', 'ChangeToken', 'ChangeType', 'SiteId', 'Time']);
    assert.equal(((v.ChangeToken as { __metadata: { type: string } }).__metadata).type, 'SP.ChangeToken');
    assert.equal(v.ChangeType, 1);
    assert.equal(v.ListId, data.Id);
    assert.equal((v.ContentTypeId as { StringValue: string }).StringValue.slice(0, 6), '0x0100');

    const plain = await (await post(ACCEPT.nometadata, { ChangeTokenStart: { StringValue: start }, Item: true, Add: true })).json() as { value: Array<Record<string, unknown>> };
    assert.equal(plain.value.length, 1);
    assert.equal(plain.value[0]!['odata.type'], undefined);
    assert.deepEqual(plain.value[0]!.ChangeToken, { StringValue: (v.ChangeToken as { StringValue: string }).StringValue });

    const bad = await post(ACCEPT.nometadata, { ChangeTokenStart: { StringValue: 'not a token' }, Item: true, Add: true });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { 'odata.error': { code: string } })['odata.error'].code, '-2147024809, System.ArgumentException');
    const old = BigInt(Date.now() - 61 * 86_400_000) * 10000n + 621355968000000000n;
    const expired = await post(ACCEPT.nometadata, { ChangeTokenStart: { StringValue: `1;3;${data.Id};${old};1` }, Item: true, Add: true });
    assert.equal(expired.status, 500);
    const body = (await expired.json()) as { 'odata.error': { code: string; message: { value: string } } };
    assert.equal(body['odata.error'].message.value, 'The changeToken refers to a time before the start of the current change log.');
    const unknown = await post(ACCEPT.nometadata, { Nonsense: true });
    assert.equal(unknown.status, 400);
  });
});
