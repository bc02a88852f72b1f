// The list surface PnPjs's own test suite touches, through an unmodified @pnp/sp 4.x client
// against a real spemu (demo tenant): lists.ensure in all its forms, reserveListItemId,
// ensureSiteAssetsLibrary / ensureSitePagesLibrary, the Documents library every site has,
// list update / delete / recycle, and reading a whole list with `for await` (PnPjs 4's
// replacement for items.getAll) forwards and backwards. Plain fetch checks the wire.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/batching.js';
import { bearerFor } from '../helpers/bearer.ts';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-batching-types.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';

const SECRET = 'surface-lists-secret-surface-lists-secret-0123';
const BOB = 'bob@contoso.onmicrosoft.com'; // member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // visitor of /sites/dev

const bearer = (upn: string) => bearerFor(SECRET, upn);

const ids = (items: any[]) => items.map((i) => i.Id as number);

describe('PnPjs list surface against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let visitor: SPFI;
  let member: SPFI;
  /** Plain fetch below the site's /_api/ as the owner (no credentials: the seed's first owner). */
  let call: (path: string, init?: { method?: string; accept?: string; body?: unknown }) => Promise<{ status: number; json: any; text: string }>;

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    visitor = pnpFor(spemu.server.site('/sites/dev'), { Authorization: await bearer(DAVE) });
    member = pnpFor(spemu.server.site('/sites/dev'), { Authorization: await bearer(BOB) });
    call = async (path, init = {}) => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, {
        method: init.method ?? 'GET',
        headers: { Accept: init.accept ?? ACCEPT.nometadata, ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await r.text();
      return { status: r.status, text, json: text ? JSON.parse(text) : undefined };
    };
  });

  describe('lists.ensure', () => {
    it('creates the list once; on an existing list it updates it with the settings and returns created: false', async () => {
      const first = await sp.web.lists.ensure('Surface Ensure', 'first', 100, false, { EnableVersioning: false });
      assert.equal(first.created, true);
      assert.equal(first.data.Title, 'Surface Ensure');
      assert.equal(first.data.Description, 'first');
      assert.equal(first.data.EnableVersioning, false);

      const second = await sp.web.lists.ensure('Surface Ensure', 'second', 100, false, { EnableVersioning: true, OnQuickLaunch: true });
      assert.equal(second.created, false);
      // PnPjs returns what the MERGE returned (204: nothing) and a list it can go on with.
      const info = await second.list();
      assert.equal(info.Id, first.data.Id);
      assert.equal(info.Description, 'second');
      assert.equal(info.EnableVersioning, true);
      // Second path: plain fetch by id.
      const byId = await call(`web/lists(guid'${first.data.Id}')?$select=Title,Description,EnableVersioning`);
      assert.deepEqual(byId.json, { Description: 'second', EnableVersioning: true, Title: 'Surface Ensure' });
      assert.equal((await sp.web.lists.filter("Title eq 'Surface Ensure'").select('Id')()).length, 1);
    });

    it('with a library template and additional settings creates a document library', async () => {
      const r = await sp.web.lists.ensure('Surface Library', 'docs', 101, true, { OnQuickLaunch: true });
      assert.equal(r.created, true);
      assert.equal(r.data.BaseTemplate, 101);
      assert.equal(r.data.BaseType, 1);
      assert.equal(r.data.EntityTypeName, 'Surface_x0020_Library');
      assert.equal(r.data.ListItemEntityTypeFullName, 'SP.Data.Surface_x0020_LibraryItem');
      const root = await call(`web/lists(guid'${r.data.Id}')/RootFolder?$select=ServerRelativeUrl`);
      assert.equal(root.json.ServerRelativeUrl, '/sites/dev/Surface Library');
    });

    it('a title longer than 255 characters is rejected and nothing is created', async () => {
      const before = (await sp.web.lists.select('Id')()).length;
      const title = 'x'.repeat(512);
      await assert.rejects(sp.web.lists.ensure(title));
      const err = await failure(sp.web.lists.add(title));
      assert.equal(err.status, 400);
      assert.equal(err.code, '-2147024809, System.ArgumentException');
      assert.equal(err.message, 'The list title must not be longer than 255 characters.');
      // 255 is still fine.
      const longest = await sp.web.lists.ensure('y'.repeat(255));
      assert.equal(longest.created, true);
      assert.equal((await sp.web.lists.select('Id')()).length, before + 1);
    });

    it('updating an existing list with a property SP.List does not have is rejected, and the list is unchanged', async () => {
      await sp.web.lists.ensure('Surface Strict', 'kept');
      await assert.rejects(sp.web.lists.ensure('Surface Strict', 'changed', 100, false, { RandomPropertyThatDoesntExistOnObject: 'x' } as any));
      const err = await failure(sp.web.lists.getByTitle('Surface Strict').update({ RandomPropertyThatDoesntExistOnObject: 'x' } as any));
      assert.equal(err.status, 400);
      assert.match(err.message, /^The property 'RandomPropertyThatDoesntExistOnObject' does not exist on type 'SP.List'/);
      assert.equal((await sp.web.lists.getByTitle('Surface Strict')()).Description, 'kept');
    });

    it('a visitor may not create a list through ensure (403), and nothing is created', async () => {
      await assert.rejects(visitor.web.lists.ensure('Surface Visitor'));
      const err = await failure(visitor.web.lists.add('Surface Visitor'));
      assert.equal(err.status, 403);
      assert.equal((await call("web/lists/getbytitle('Surface Visitor')")).status, 404);
    });
  });

  describe('list update, delete and recycle', () => {
    it('getByTitle(…).select("ItemCount") follows adds and deletes', async () => {
      const { list } = await sp.web.lists.ensure('Surface Count');
      assert.equal((await list.select('ItemCount')()).ItemCount, 0);
      const a = await list.items.add({ Title: 'a' });
      await list.items.add({ Title: 'b' });
      assert.equal((await sp.web.lists.getByTitle('Surface Count').select('ItemCount')()).ItemCount, 2);
      assert.deepEqual((await call("web/lists/getbytitle('Surface Count')?$select=ItemCount")).json, { ItemCount: 2 });
      await list.items.getById(a.Id).delete();
      assert.equal((await list.select('ItemCount')()).ItemCount, 1);
    });

    it('update with a new title: the list answers by its new title only', async () => {
      const { list, data } = await sp.web.lists.ensure('Surface Before');
      await list.update({ Title: 'Surface After' });
      assert.equal((await sp.web.lists.getById(data.Id)()).Title, 'Surface After');
      assert.equal((await failure(sp.web.lists.getByTitle('Surface Before')())).status, 404);
    });

    it('recycle returns a GUID string and the list is gone; delete by id removes it too', async () => {
      const recycled = await sp.web.lists.ensure('Surface Recycle');
      const id = await recycled.list.recycle();
      assert.equal(typeof id, 'string');
      assert.match(id, GUID);
      await assert.rejects(recycled.list.select('Title')());

      const added = await sp.web.lists.add('Surface Delete');
      await sp.web.lists.getById(added.Id).delete();
      assert.equal((await failure(sp.web.lists.getById(added.Id)())).status, 404);
    });
  });

  describe('list.getParentInfos', () => {
    it('reads the list id, its root folder and its web in one request ($expand=RootFolder,ParentWeb)', async () => {
      const web = await sp.web();
      const tasks = await sp.web.lists.getByTitle('Tasks')();
      const infos = await sp.web.lists.getByTitle('Tasks').getParentInfos();
      assert.equal(infos.List.Id, tasks.Id);
      assert.equal(infos.List.RootFolderServerRelativeUrl, '/sites/dev/Lists/Tasks');
      assert.deepEqual(infos.List.RootFolderServerRelativePath, { DecodedUrl: '/sites/dev/Lists/Tasks' });
      assert.equal(infos.List.RootFolderUniqueId, tasks.Id);
      assert.equal(infos.ParentWeb.Id, web.Id);
      assert.equal(infos.ParentWeb.Url, web.Url);
      assert.equal(infos.ParentWeb.ServerRelativeUrl, '/sites/dev');
      const wire = await call("web/lists/getbytitle('Tasks')?$select=Id,RootFolder/Name,ParentWeb/Title&$expand=RootFolder,ParentWeb");
      assert.deepEqual(wire.json, { Id: tasks.Id, RootFolder: { Name: 'Tasks' }, ParentWeb: { Title: web.Title } });
      assert.equal((await call("web/lists/getbytitle('Tasks')?$expand=Items")).status, 400);
    });
  });

  describe('reserveListItemId', () => {
    it('hands out new, increasing ids that later adds never reuse', async () => {
      const { list } = await sp.web.lists.ensure('Surface Reserve');
      const first = await list.items.add({ Title: 'one' });
      const r1 = await list.reserveListItemId();
      const r2 = await list.reserveListItemId();
      assert.equal(typeof r1, 'number');
      assert.equal(r1, first.Id + 1);
      assert.equal(r2, r1 + 1);
      const next = await list.items.add({ Title: 'two' });
      assert.equal(next.Id, r2 + 1);
      // Reserving creates no item.
      assert.equal((await list.select('ItemCount')()).ItemCount, 2);
      assert.deepEqual(ids(await list.items.select('Id')()), [first.Id, next.Id]);
      assert.equal((await failure(list.items.getById(r1)())).status, 404);
    });

    it('answers the id in every dialect as SharePoint writes an Edm.Int32 result', async () => {
      const verbose = await call("web/lists/getbytitle('Surface Reserve')/reservelistitemid", { method: 'POST', accept: ACCEPT.verbose });
      assert.equal(verbose.status, 200);
      assert.equal(typeof verbose.json.d.ReserveListItemId, 'number');
      const minimal = await call("web/lists/getbytitle('Surface Reserve')/reservelistitemid", { method: 'POST', accept: ACCEPT.minimal });
      assert.match(minimal.json['odata.metadata'], /\/_api\/\$metadata#Edm\.Int32$/);
      assert.equal(minimal.json.value, verbose.json.d.ReserveListItemId + 1);
    });

    it('needs POST and a role that may add items', async () => {
      assert.equal((await call("web/lists/getbytitle('Surface Reserve')/reservelistitemid")).status, 405);
      const err = await failure(visitor.web.lists.getByTitle('Surface Reserve').reserveListItemId());
      assert.equal(err.status, 403);
      assert.equal(typeof await member.web.lists.getByTitle('Surface Reserve').reserveListItemId(), 'number');
    });

    it('concurrent reservations and adds never share an id', async () => {
      const { list } = await sp.web.lists.ensure('Surface Reserve Race');
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2
        ? list.reserveListItemId()
        : list.items.add({ Title: `r${i}` }).then((a) => a.Id as number))));
      assert.equal(new Set(results).size, 20);
    });
  });

  describe('site libraries', () => {
    it('ensureSiteAssetsLibrary makes the Site Assets library once and returns it after', async () => {
      // Every site has it from the start, as a new team site does; deleted, the next call makes it again.
      const original = await sp.web.lists.getByTitle('Site Assets').select('Id')();
      await sp.web.lists.getByTitle('Site Assets').delete();
      assert.equal((await call("web/lists/getbytitle('Site Assets')")).status, 404);
      const made = await sp.web.lists.ensureSiteAssetsLibrary();
      const info = await made();
      assert.notEqual(info.Id, original.Id, 'a new library');
      assert.equal(info.Title, 'Site Assets');
      assert.equal(info.BaseTemplate, 101);
      assert.equal(info.BaseType, 1);
      assert.equal(info.EntityTypeName, 'SiteAssets');
      assert.equal(info.ListItemEntityTypeFullName, 'SP.Data.SiteAssetsItem');
      const root = await call(`web/lists(guid'${info.Id}')/RootFolder?$select=ServerRelativeUrl`);
      assert.equal(root.json.ServerRelativeUrl, '/sites/dev/SiteAssets');

      const again = await (await sp.web.lists.ensureSiteAssetsLibrary())();
      assert.equal(again.Id, info.Id);
      // A visitor may ask once it exists.
      assert.equal((await (await visitor.web.lists.ensureSiteAssetsLibrary())()).Id, info.Id);
      assert.equal((await sp.web.lists.filter("Title eq 'Site Assets'").select('Id')()).length, 1);
    });

    it('ensureSitePagesLibrary makes Site Pages (template 119) and getList finds it by URL', async () => {
      assert.equal((await (await visitor.web.lists.ensureSitePagesLibrary())()).Title, 'Site Pages', 'there from the start');
      await sp.web.lists.getByTitle('Site Pages').delete();
      // A visitor cannot be the one who creates it.
      assert.equal((await failure(visitor.web.lists.ensureSitePagesLibrary())).status, 403);
      const info = await (await member.web.lists.ensureSitePagesLibrary())();
      assert.equal(info.Title, 'Site Pages');
      assert.equal(info.BaseTemplate, 119);
      assert.equal(info.ListItemEntityTypeFullName, 'SP.Data.SitePagesItem');
      const byUrl = await sp.web.getList('/sites/dev/SitePages')();
      assert.equal(byUrl.Id, info.Id);
      assert.equal((await (await sp.web.lists.ensureSitePagesLibrary())()).Id, info.Id);
    });

    it('verbose answers carry the list with its __metadata.uri (what PnPjs chains from)', async () => {
      const r = await call('web/lists/ensuresiteassetslibrary', { method: 'POST', accept: ACCEPT.verbose });
      assert.equal(r.status, 200);
      assert.equal(r.json.d.__metadata.type, 'SP.List');
      assert.match(r.json.d.__metadata.uri, /\/sites\/dev\/_api\/Web\/Lists\(guid'[0-9a-f-]{36}'\)$/);
      assert.equal(r.json.d.Title, 'Site Assets');
    });

    it("every site has a Documents library at 'Shared Documents'", async () => {
      const docs = await sp.web.lists.getByTitle('Documents')();
      assert.equal(docs.BaseTemplate, 101);
      assert.equal(docs.BaseType, 1);
      assert.equal(docs.EntityTypeName, 'Shared_x0020_Documents');
      assert.equal(docs.ListItemEntityTypeFullName, 'SP.Data.Shared_x0020_DocumentsItem');
      const root = await call("web/lists/getbytitle('Documents')/RootFolder?$select=Name,ServerRelativeUrl");
      assert.deepEqual(root.json, { Name: 'Shared Documents', ServerRelativeUrl: '/sites/dev/Shared Documents' });
      assert.equal((await sp.web.getList('/sites/dev/Shared Documents')()).Id, docs.Id);
      // On the other site of the tenant too.
      const pwa = await fetch(`${spemu.server.site('/sites/pwa')}/_api/web/lists/getbytitle('Documents')?$select=EntityTypeName,BaseTemplate`,
        { headers: { Accept: ACCEPT.nometadata } });
      assert.deepEqual(await pwa.json(), { BaseTemplate: 101, EntityTypeName: 'Shared_x0020_Documents' });
      // Metadata works: an item whose verbose type is the library's item type.
      const added = await call("web/lists/getbytitle('Documents')/items", {
        method: 'POST', accept: ACCEPT.verbose, body: { __metadata: { type: 'SP.Data.Shared_x0020_DocumentsItem' }, Title: 'meta' },
      });
      assert.equal(added.status, 400, 'a JSON-light content type with __metadata is refused');
      const verbose = await fetch(`${spemu.server.site('/sites/dev')}/_api/web/lists/getbytitle('Documents')/items`, {
        method: 'POST',
        headers: { Accept: ACCEPT.verbose, 'Content-Type': 'application/json;odata=verbose' },
        body: JSON.stringify({ __metadata: { type: 'SP.Data.Shared_x0020_DocumentsItem' }, Title: 'meta' }),
      });
      assert.equal(verbose.status, 201);
      assert.equal(((await verbose.json()) as any).d.__metadata.type, 'SP.Data.Shared_x0020_DocumentsItem');
    });
  });

  describe('reading a whole list (PnPjs 4: for await over list.items)', () => {
    let allIds: number[];
    before(async () => {
      const { list } = await sp.web.lists.ensure('Surface Paged');
      // 230 items in batches of 100 (as a PnPjs app fills a list), a few deleted for gaps.
      const made: number[] = [];
      for (let start = 0; start < 230; start += 100) {
        const [batched, execute] = sp.batched({ maxRequests: 100 });
        const adds = Array.from({ length: Math.min(100, 230 - start) }, (_, i) =>
          batched.web.lists.getByTitle('Surface Paged').items.add({ Title: `P${start + i}` }));
        await execute();
        for (const a of await Promise.all(adds)) made.push((a as { Id: number }).Id);
      }
      for (const id of [made[5]!, made[150]!]) await list.items.getById(id).delete();
      allIds = made.filter((id) => id !== made[5] && id !== made[150]);
    });

    it('without $top: pages of 100 follow odata.nextLink to the end; the count equals ItemCount', async () => {
      const list = sp.web.lists.getByTitle('Surface Paged');
      const { ItemCount } = await list.select('ItemCount')();
      const seen: number[] = [];
      const sizes: number[] = [];
      for await (const page of list.items) {
        sizes.push(page.length);
        seen.push(...ids(page));
      }
      assert.equal(seen.length, ItemCount);
      assert.deepEqual(seen, allIds);
      assert.deepEqual(sizes, [100, 100, 28]);
    });

    it('verbose paging follows d.__next the same way', async () => {
      const verbose = pnpFor(spemu.server.site('/sites/dev'), { Accept: ACCEPT.verbose });
      const seen: number[] = [];
      for await (const page of verbose.web.lists.getByTitle('Surface Paged').items.select('Id').top(75)) seen.push(...ids(page));
      assert.deepEqual(seen, allIds);
    });

    it('items.top(n).skip(id, true) pages backwards (PagedPrev) and the next links keep going backwards', async () => {
      const list = sp.web.lists.getByTitle('Surface Paged');
      const from = allIds[120]!;
      const first = await list.items.select('Id').top(50).skip(from, true)();
      assert.deepEqual(ids(first), allIds.slice(70, 120));
      const seen: number[][] = [];
      for await (const page of list.items.select('Id').top(50).skip(from, true)) seen.push(ids(page));
      assert.deepEqual(seen, [allIds.slice(70, 120), allIds.slice(20, 70), allIds.slice(0, 20)]);
      // The wire: the next link carries PagedPrev and the first id of the page.
      const r = await call(`web/lists/getbytitle('Surface Paged')/items?$select=Id&$top=50&$skiptoken=${encodeURIComponent(`Paged=TRUE&PagedPrev=TRUE&p_ID=${from}`)}`);
      assert.match(r.json['odata.nextLink'], new RegExp(`%24skiptoken=Paged%3dTRUE%26PagedPrev%3dTRUE%26p_ID%3d${allIds[70]}`));
    });
  });
});
