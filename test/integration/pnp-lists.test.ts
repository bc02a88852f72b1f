// Lists through an unmodified @pnp/sp 4.x client against a real spemu (demo tenant, :memory:).
// Whatever PnPjs returns is checked against what the server stored, read back via a second
// path (another PnPjs call or plain fetch).

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import { GUID } from '../helpers/wire.ts';

describe('PnPjs lists against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  /** GET a path below the site's /_api/ with plain fetch, JSON light without metadata. */
  let api: (path: string) => Promise<{ status: number; json: any }>;

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    api = async (path) => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, { headers: { Accept: 'application/json;odata=nometadata' } });
      return { status: r.status, json: r.status === 204 ? undefined : await r.json() };
    };
  });

  it('lists.add returns the new list, and the server holds it', async () => {
    const added = await sp.web.lists.add('Gadgets', 'Things we build', 100);
    assert.equal(added.Title, 'Gadgets');
    assert.equal(added.Description, 'Things we build');
    assert.equal(added.BaseTemplate, 100);
    assert.match(added.Id, GUID);
    assert.equal(added.ListItemEntityTypeFullName, 'SP.Data.GadgetsListItem');
    assert.equal(added.EntityTypeName, 'GadgetsList');
    assert.equal(added.ItemCount, 0);

    // Second path: plain fetch by id, and the web's list collection.
    const byId = await api(`web/lists(guid'${added.Id}')`);
    assert.equal(byId.status, 200);
    assert.equal(byId.json.Title, 'Gadgets');
    assert.equal(byId.json.Description, 'Things we build');
    assert.equal(byId.json.ListItemEntityTypeFullName, 'SP.Data.GadgetsListItem');
    const all = await sp.web.lists.select('Title', 'Id')();
    assert.deepEqual(all.filter((l: any) => l.Id === added.Id).map((l: any) => l.Title), ['Gadgets']);
  });

  it('lists.add of a title with spaces names the entity type SharePoint-style', async () => {
    const added = await sp.web.lists.add('Team Events 2026', '', 100);
    assert.equal(added.ListItemEntityTypeFullName, 'SP.Data.Team_x0020_Events_x0020_2026ListItem');
    const byUrl = await sp.web.getList('/sites/dev/Lists/Team Events 2026')();
    assert.equal(byUrl.Id, added.Id);
  });

  it('lists.ensure creates, then finds and updates the description', async () => {
    const first = await sp.web.lists.ensure('Ensured', 'first description');
    assert.equal(first.created, true);
    assert.equal(first.data.Title, 'Ensured');
    const stored = await sp.web.lists.getByTitle('Ensured')();
    assert.equal(stored.Description, 'first description');
    assert.equal(stored.Id, first.data.Id);

    const second = await sp.web.lists.ensure('Ensured', 'second description');
    assert.equal(second.created, false);
    const info = await second.list();
    assert.equal(info.Id, first.data.Id, 'ensure must not create a second list');
    assert.equal(info.Description, 'second description');
    const count = (await sp.web.lists.select('Title')()).filter((l: any) => l.Title === 'Ensured').length;
    assert.equal(count, 1);
  });

  it('getByTitle, getById and web.getList address the same list', async () => {
    const tasks = await sp.web.lists.getByTitle('Tasks')();
    assert.equal(tasks.Title, 'Tasks');
    assert.equal(tasks.Description, 'Engineering work items.');
    assert.match(tasks.Id, GUID);

    const byId = await sp.web.lists.getById(tasks.Id)();
    assert.equal(byId.Title, 'Tasks');
    assert.equal(byId.Id, tasks.Id);

    const byUrl = await sp.web.getList('/sites/dev/Lists/Tasks')();
    assert.equal(byUrl.Id, tasks.Id);
    const byAbsoluteUrl = await sp.web.getList(`${spemu.server.site('/sites/dev')}/Lists/Tasks`)();
    assert.equal(byAbsoluteUrl.Id, tasks.Id);
    // Without its leading slash (PnPjs's combine() drops it), and relative to the web.
    assert.equal((await sp.web.getList('sites/dev/Lists/Tasks')()).Id, tasks.Id);
    assert.equal((await sp.web.getList('Lists/Tasks')()).Id, tasks.Id);

    // GUIDs in braces and upper case (as SharePoint writes them in LookupList) address it too.
    const braced = await sp.web.lists.getById(`{${tasks.Id.toUpperCase()}}`)();
    assert.equal(braced.Id, tasks.Id);

    // Case-insensitive title, as SharePoint.
    const lower = await sp.web.lists.getByTitle('tasks')();
    assert.equal(lower.Id, tasks.Id);
  });

  it("select('ItemCount') equals the number of items in the list", async () => {
    const list = sp.web.lists.getByTitle('Tasks');
    const { ItemCount } = await sp.web.lists.getByTitle('Tasks').select('ItemCount')();
    const items = await list.items.select('Id').top(5000)();
    assert.equal(ItemCount, items.length);
    assert.ok(ItemCount > 0);

    await sp.web.lists.add('Counted', '', 100);
    const counted = sp.web.lists.getByTitle('Counted');
    for (const title of ['a', 'b', 'c']) await counted.items.add({ Title: title });
    assert.equal((await sp.web.lists.getByTitle('Counted').select('ItemCount')()).ItemCount, 3);
    const [firstItem] = await counted.items.select('Id').top(1)();
    await counted.items.getById(firstItem.Id).delete();
    assert.equal((await sp.web.lists.getByTitle('Counted').select('ItemCount')()).ItemCount, 2);
    assert.equal((await counted.items.select('Id')()).length, 2);
  });

  it('list.update changes Title and Description, read back by id and by fetch', async () => {
    const added = await sp.web.lists.add('Renamable', 'old', 100);
    await sp.web.lists.getByTitle('Renamable').update({ Title: 'Renamed', Description: 'new description' });
    const byId = await sp.web.lists.getById(added.Id)();
    assert.equal(byId.Title, 'Renamed');
    assert.equal(byId.Description, 'new description');
    const fetched = await api(`web/lists/getByTitle('Renamed')`);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.json.Id, added.Id);
    const old = await failure(sp.web.lists.getByTitle('Renamable')());
    assert.equal(old.status, 404);
  });

  it('list.update after select() on the same object (the query sticks) still updates', async () => {
    await sp.web.lists.add('Sticky', 'before', 100);
    const list = sp.web.lists.getByTitle('Sticky');
    assert.equal((await list.select('Description')()).Description, 'before');
    await list.update({ Description: 'after' });
    assert.equal((await sp.web.lists.getByTitle('Sticky')()).Description, 'after');
  });

  it('list.update with a stale etag is refused with 412', async () => {
    await sp.web.lists.add('Versioned', 'v1', 100);
    const etag: string = ((await sp.web.lists.getByTitle('Versioned')()) as any)['odata.etag'];
    assert.match(etag, /^"\d+"$/);
    await sp.web.lists.getByTitle('Versioned').update({ Description: 'v2' }, etag);
    const stale = await failure(sp.web.lists.getByTitle('Versioned').update({ Description: 'v3' }, etag));
    assert.equal(stale.status, 412);
    assert.equal((await sp.web.lists.getByTitle('Versioned')()).Description, 'v2');
  });

  it('list.delete removes the list: getByTitle then fails with 404 and SharePoint\'s message', async () => {
    const added = await sp.web.lists.add('Doomed', '', 100);
    await sp.web.lists.getByTitle('Doomed').items.add({ Title: 'x' });
    await sp.web.lists.getByTitle('Doomed').delete();

    const err = await failure(sp.web.lists.getByTitle('Doomed')());
    assert.equal(err.status, 404);
    assert.equal(err.message, `List 'Doomed' does not exist at site with URL '${spemu.server.site('/sites/dev')}'.`);
    const byId = await failure(sp.web.lists.getById(added.Id)());
    assert.equal(byId.status, 404);
    assert.match(byId.message, /^List does not exist\./);
    const titles = (await sp.web.lists.select('Title')()).map((l: any) => l.Title);
    assert.ok(!titles.includes('Doomed'));
    // The title is free again.
    const again = await sp.web.lists.add('Doomed', '', 100);
    assert.notEqual(again.Id, added.Id);
    assert.equal(again.ItemCount, 0);
  });

  it("titles with ', spaces, &, # and non-ASCII round-trip through every addressing form", async () => {
    for (const title of ["Bob's List & ü", 'Q#1 Plan & Budget', 'Sales 100% / Q3? (draft)', 'Ünïcödé – 日本語']) {
      const added = await sp.web.lists.add(title, `about ${title}`, 100);
      assert.equal(added.Title, title);

      const byTitle = await sp.web.lists.getByTitle(title)();
      assert.equal(byTitle.Id, added.Id, title);
      assert.equal(byTitle.Title, title);
      assert.equal(byTitle.Description, `about ${title}`);

      const byId = await sp.web.lists.getById(added.Id)();
      assert.equal(byId.Title, title);

      // The list URL keeps what a URL can hold; getList finds it by that URL.
      const root = await api(`web/lists(guid'${added.Id}')/RootFolder`);
      assert.equal(root.status, 200);
      const byUrl = await sp.web.getList(root.json.ServerRelativeUrl)();
      assert.equal(byUrl.Id, added.Id);

      // Items work through the encoded title, and the list can be filtered by its title.
      const item = await sp.web.lists.getByTitle(title).items.add({ Title: `in ${title}` });
      const readBack = await sp.web.lists.getById(added.Id).items.getById(item.Id)();
      assert.equal(readBack.Title, `in ${title}`);
      const filtered = await sp.web.lists.filter(`Title eq '${title.replace(/'/g, "''")}'`).select('Id')();
      assert.deepEqual(filtered.map((l: any) => l.Id), [added.Id]);
    }
  });

  it('a second list with the same title is refused, and nothing is created', async () => {
    const before = (await sp.web.lists.select('Id')()).length;
    const err = await failure(sp.web.lists.add('Gadgets', 'again', 100));
    assert.equal(err.status, 500);
    assert.match(err.message, /^A list, survey, discussion board, or document library with the specified title already exists/);
    // Case-insensitively, as SharePoint.
    const upper = await failure(sp.web.lists.add('GADGETS', 'again', 100));
    assert.equal(upper.status, 500);
    assert.equal((await sp.web.lists.select('Id')()).length, before);
    assert.equal((await sp.web.lists.getByTitle('Gadgets')()).Description, 'Things we build');
  });

  it('a list that does not exist: getByTitle, getById and getList all reject with 404', async () => {
    const byTitle = await failure(sp.web.lists.getByTitle("Nobody's List")());
    assert.equal(byTitle.status, 404);
    assert.equal(byTitle.message, `List 'Nobody's List' does not exist at site with URL '${spemu.server.site('/sites/dev')}'.`);
    const byId = await failure(sp.web.lists.getById('0f0f0f0f-0000-4000-8000-000000000000')());
    assert.equal(byId.status, 404);
    const byUrl = await failure(sp.web.getList('/sites/dev/Lists/Nothing')());
    assert.equal(byUrl.status, 404);
  });
});
