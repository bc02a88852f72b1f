// List items through an unmodified @pnp/sp 4.x client against a real spemu (demo tenant,
// :memory:): every field type written and read back exactly, $select/$expand, $filter,
// $orderby, $top, etags, delete/recycle, authorship, and server-driven paging.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { SPFI } from '@pnp/sp';
import type { IList } from '@pnp/sp/lists/index.js';
import { DEMO_TENANT, useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import { GUID } from '../helpers/wire.ts';

interface TenantUser { upn: string; displayName: string; lastName?: string }
interface TenantItem { Title: string; author?: string; editor?: string; [k: string]: unknown }
const demo = JSON.parse(readFileSync(DEMO_TENANT, 'utf8')) as {
  users: TenantUser[];
  sites: Array<{ url: string; owners?: string[]; lists?: Array<{ title: string; items?: TenantItem[] }> }>;
};
const devSite = demo.sites.find((s) => s.url === '/sites/dev')!;
const demoUser = (upn: string) => demo.users.find((u) => u.upn === upn)!;
/** The seeded Tasks items; SharePoint numbers them from 1 in file order. */
const seededTasks = devSite.lists!.find((l) => l.title === 'Tasks')!.items!;

const ids = (items: any[]) => items.map((i) => i.Id as number);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** Runs `fn` over `xs` with at most `n` calls in flight. */
async function inParallel<T, R>(xs: T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(xs.length);
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < xs.length) {
      const i = next++;
      out[i] = await fn(xs[i]!);
    }
  }));
  return out;
}

describe('PnPjs list items against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let api: (path: string, accept?: string) => Promise<{ status: number; json: any; etag: string | null }>;
  /** User Information List ids by display name. */
  const userId = new Map<string, number>();
  let inventory: IList;
  let categoryIds: number[];

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    api = async (path, accept = 'application/json;odata=nometadata') => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, { headers: { Accept: accept } });
      return { status: r.status, json: r.status === 204 ? undefined : await r.json(), etag: r.headers.get('etag') };
    };
    for (const u of await sp.web.lists.getByTitle('User Information List').items.select('Id', 'Title').top(5000)()) {
      userId.set(u.Title, u.Id);
    }

    await sp.web.lists.add('Categories', '', 100);
    const cats = sp.web.lists.getByTitle('Categories');
    categoryIds = [];
    for (const t of ['Tools', 'Toys', 'Food']) categoryIds.push((await cats.items.add({ Title: t })).Id);
    const catListId = (await cats.select('Id')()).Id;

    // One list with a field of every type, made the way a PnPjs app makes it.
    await sp.web.lists.add('Inventory', 'every field type', 100);
    inventory = sp.web.lists.getByTitle('Inventory');
    const f = inventory.fields;
    await f.addText('Sku');
    await f.addMultilineText('Details', { RichText: false });
    await f.addNumber('Weight');
    await f.addCurrency('Price');
    await f.add('Qty', 1);
    await f.addBoolean('InStock');
    await f.addDateTime('Arrived', { DisplayFormat: 1 });
    await f.addChoice('Size', { Choices: ['Small', 'Medium', 'Large'] });
    await f.addMultiChoice('Colors', { Choices: ['Red', 'Green', 'Blue'] });
    await f.addUrl('Homepage');
    await f.addUser('Owner');
    await f.createFieldAsXml('<Field Type="UserMulti" Mult="TRUE" DisplayName="Watchers" Name="Watchers" UserSelectionMode="PeopleOnly" />');
    await f.addLookup('Category', { LookupListId: catListId, LookupFieldName: 'Title' });
    await f.createFieldAsXml(`<Field Type="LookupMulti" Mult="TRUE" DisplayName="Related" Name="Related" List="{${catListId}}" ShowField="Title" />`);
  });

  it('the demo users are in the User Information List', () => {
    for (const name of ['Alice Adams', 'Bob Baker', 'Carol Chen']) assert.ok(userId.has(name), name);
  });

  describe('writing and reading every field type', () => {
    it('items.add with every field type returns, and stores, exactly what was sent', async () => {
      const alice = userId.get('Alice Adams')!, bob = userId.get('Bob Baker')!, carol = userId.get('Carol Chen')!;
      const sent = {
        Title: 'Widget', Sku: 'W-001', Details: 'Line one\nLine two <b>bold</b> & "quoted"', Weight: 12.75, Price: 1234.5, Qty: 42,
        InStock: true, Arrived: '2026-03-04T05:06:07Z', Size: 'Medium', Colors: { results: ['Red', 'Blue'] },
        Homepage: { Url: 'https://example.com/widget?a=1&b=2', Description: 'Widget page' },
        OwnerId: bob, WatchersId: [alice, carol], CategoryId: categoryIds[1], RelatedId: [categoryIds[0], categoryIds[2]],
      };
      const expected = {
        Title: 'Widget', Sku: 'W-001', Details: sent.Details, Weight: 12.75, Price: 1234.5, Qty: 42, InStock: true,
        Arrived: '2026-03-04T05:06:07Z', Size: 'Medium', Colors: ['Red', 'Blue'],
        Homepage: { Url: 'https://example.com/widget?a=1&b=2', Description: 'Widget page' },
        OwnerId: bob, OwnerStringId: String(bob), WatchersId: [alice, carol], WatchersStringId: [String(alice), String(carol)],
        CategoryId: categoryIds[1], RelatedId: [categoryIds[0], categoryIds[2]],
      };
      const added = await inventory.items.add(sent);
      const pick = (o: any) => Object.fromEntries(Object.keys(expected).map((k) => [k, o[k]]));
      assert.deepEqual(pick(added), expected, 'the 201 body');
      assert.equal(added.Id, added.ID);
      assert.equal(added['odata.etag'], '"1"');

      const read = await inventory.items.getById(added.Id)();
      assert.deepEqual(pick(read), expected, 'read back through PnPjs');
      // Second path: plain fetch by list id and Items(n), without metadata.
      const listId = (await inventory.select('Id')()).Id;
      const fetched = await api(`web/lists(guid'${listId}')/items(${added.Id})`);
      assert.equal(fetched.status, 200);
      assert.deepEqual(pick(fetched.json), expected, 'read back through fetch');
      assert.equal(fetched.etag, '"1"');
      // Numbers are doubles on the wire (12.75, 42 for Integer); verbose writes collections as results.
      const verbose = await api(`web/lists(guid'${listId}')/items(${added.Id})`, 'application/json;odata=verbose');
      assert.deepEqual(verbose.json.d.Colors.results, ['Red', 'Blue']);
      assert.deepEqual(verbose.json.d.WatchersId.results, [alice, carol]);
      assert.equal(verbose.json.d.Homepage.Url, 'https://example.com/widget?a=1&b=2');
    });

    it('other input forms: arrays for MultiChoice, zoned and date-only dates, false and 0', async () => {
      const added = await inventory.items.add({
        Title: 'Gizmo', Colors: ['Green'], Arrived: '2026-03-04T06:06:07+01:00', InStock: false, Qty: 0, Weight: 0, Price: 0.01,
        WatchersId: { results: [userId.get('Bob Baker')!] },
      });
      const read = await inventory.items.getById(added.Id).select('Colors', 'Arrived', 'InStock', 'Qty', 'Weight', 'Price', 'WatchersId')();
      assert.deepEqual(read.Colors, ['Green']);
      assert.equal(read.Arrived, '2026-03-04T05:06:07Z');
      assert.equal(read.InStock, false);
      assert.equal(read.Qty, 0);
      assert.equal(read.Weight, 0);
      assert.equal(read.Price, 0.01);
      assert.deepEqual(read.WatchersId, [userId.get('Bob Baker')!]);

      await inventory.items.getById(added.Id).update({ Arrived: '2026-12-25' });
      assert.equal((await inventory.items.getById(added.Id).select('Arrived')()).Arrived, '2026-12-25T00:00:00Z');
    });

    it('fields left out read null, and setting a value to null clears it', async () => {
      const bare = await inventory.items.add({ Title: 'Bare' });
      const read = await inventory.items.getById(bare.Id)();
      for (const k of ['Sku', 'Details', 'Weight', 'Price', 'Qty', 'InStock', 'Arrived', 'Size', 'Homepage', 'OwnerId', 'CategoryId']) {
        assert.ok(k in read, `${k} is present`);
        assert.equal(read[k], null, k);
      }

      const full = await inventory.items.add({
        Title: 'Full', Sku: 'F', Weight: 1, Qty: 1, InStock: true, Arrived: '2026-01-01T00:00:00Z', Size: 'Small',
        Homepage: { Url: 'https://example.com', Description: 'x' }, OwnerId: userId.get('Bob Baker')!, CategoryId: categoryIds[0],
      });
      await inventory.items.getById(full.Id).update({
        Sku: null, Weight: null, Qty: null, InStock: null, Arrived: null, Size: null, Homepage: null, OwnerId: null, CategoryId: null,
      });
      const cleared = await inventory.items.getById(full.Id)();
      for (const k of ['Sku', 'Weight', 'Qty', 'InStock', 'Arrived', 'Size', 'Homepage', 'OwnerId', 'CategoryId']) {
        assert.equal(cleared[k], null, k);
      }
      assert.equal(cleared.Title, 'Full');
    });

    it('a value of the wrong type is refused with 400 and nothing is stored', async () => {
      const before = (await inventory.select('ItemCount')()).ItemCount;
      assert.equal((await failure(inventory.items.add({ Title: 'bad', Weight: 'heavy' }))).status, 400);
      assert.equal((await failure(inventory.items.add({ Title: 'bad', Arrived: 'not a date' }))).status, 400);
      assert.equal((await failure(inventory.items.add({ Title: 'bad', NoSuchField: 1 }))).status, 400);
      assert.equal((await inventory.select('ItemCount')()).ItemCount, before);
    });

    it('select() returns only the named properties', async () => {
      const added = await inventory.items.add({ Title: 'Selective', Sku: 'S-1', Weight: 3.5 });
      const read = await inventory.items.getById(added.Id).select('Title', 'Weight')();
      const keys = Object.keys(read).filter((k) => !k.startsWith('odata.'));
      assert.deepEqual(keys.sort(), ['Title', 'Weight']);
      assert.equal(read.Title, 'Selective');
      assert.equal(read.Weight, 3.5);

      const many = await inventory.items.select('Id', 'Sku').filter(`Id eq ${added.Id}`)();
      assert.deepEqual(many.map((i: any) => Object.keys(i).filter((k) => !k.startsWith('odata.')).sort()), [['Id', 'Sku']]);
      assert.equal(many[0].Sku, 'S-1');

      const bad = await failure(inventory.items.getById(added.Id).select('Nope')());
      assert.equal(bad.status, 400);
      assert.equal(bad.message, "The field or property 'Nope' does not exist.");
    });

    it("Author and Editor of created items are the site's first owner (alice)", async () => {
      const alice = userId.get('Alice Adams')!;
      assert.equal(demoUser(devSite.owners![0]!).displayName, 'Alice Adams');
      const added = await inventory.items.add({ Title: 'Authored' });
      assert.equal(added.AuthorId, alice);
      assert.equal(added.EditorId, alice);
      const read = await inventory.items.getById(added.Id)
        .select('Title', 'AuthorId', 'EditorId', 'Author/Title', 'Author/Id', 'Editor/Title', 'Editor/EMail').expand('Author', 'Editor')();
      assert.equal(read.Author.Title, 'Alice Adams');
      assert.equal(read.Author.Id, alice);
      assert.equal(read.Editor.Title, 'Alice Adams');
      assert.equal(read.Editor.EMail, 'alice@contoso.com');
      assert.equal(read.AuthorId, alice);
      // Created and Modified are now-ish ISO instants with Z.
      const times = await inventory.items.getById(added.Id).select('Created', 'Modified')();
      assert.match(times.Created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.ok(Math.abs(Date.parse(times.Created) - Date.now()) < 60_000);
      assert.equal(times.Modified, times.Created);
    });

    it('expand on a User and a Lookup field gives the target rows', async () => {
      const bob = userId.get('Bob Baker')!;
      const added = await inventory.items.add({ Title: 'Expanded', OwnerId: bob, CategoryId: categoryIds[2], WatchersId: [bob, userId.get('Carol Chen')!] });
      const read = await inventory.items.getById(added.Id)
        .select('Owner/Title', 'Owner/Id', 'Category/Title', 'Watchers/Title').expand('Owner', 'Category', 'Watchers')();
      assert.equal(read.Owner.Title, 'Bob Baker');
      assert.equal(read.Owner.Id, bob);
      assert.equal(read.Category.Title, 'Food');
      assert.deepEqual(read.Watchers.map((w: any) => w.Title), ['Bob Baker', 'Carol Chen']);

      const unexpanded = await failure(inventory.items.getById(added.Id).select('Owner/Title')());
      assert.equal(unexpanded.status, 400);
      assert.match(unexpanded.message, /\$expand/);
    });
  });

  describe('querying: filter, orderBy, top', () => {
    let catalog: IList;
    interface Row { Title: string; Size: string; Weight: number; Qty: number; InStock: boolean; Arrived: string | null; Sku: string | null; Owner: string | null; Id?: number }
    const rows: Row[] = [
      { Title: 'Alpha', Size: 'Small', Weight: 1.5, Qty: 10, InStock: true, Arrived: '2026-01-10T08:00:00Z', Sku: 'A-1', Owner: 'Bob Baker' },
      { Title: 'Bravo', Size: 'Medium', Weight: 20, Qty: 3, InStock: false, Arrived: '2026-02-15T12:30:00Z', Sku: null, Owner: 'Carol Chen' },
      { Title: 'Charlie', Size: 'Large', Weight: 7.25, Qty: 0, InStock: true, Arrived: '2026-03-01T00:00:00Z', Sku: 'C-3', Owner: 'Bob Baker' },
      { Title: 'Alpine', Size: 'Small', Weight: 20, Qty: 8, InStock: false, Arrived: null, Sku: 'A-4', Owner: null },
      { Title: 'Delta middle', Size: 'Medium', Weight: 0.5, Qty: 15, InStock: true, Arrived: '2025-12-31T23:59:59Z', Sku: 'D-5', Owner: 'Alice Adams' },
      { Title: 'Echo', Size: 'Large', Weight: 20, Qty: 3, InStock: true, Arrived: '2026-02-01T00:00:00Z', Sku: null, Owner: 'Carol Chen' },
      { Title: 'amid', Size: 'Small', Weight: 3, Qty: 7, InStock: false, Arrived: '2026-02-01T00:00:01Z', Sku: 'a-7', Owner: 'Alice Adams' },
      { Title: "O'Brien & Co #1", Size: 'Medium', Weight: 9, Qty: 1, InStock: true, Arrived: '2026-01-20T10:00:00Z', Sku: 'O-8', Owner: 'Bob Baker' },
    ];
    const idsWhere = (p: (r: Row) => boolean) => sorted(rows.filter(p).map((r) => r.Id!));

    before(async () => {
      await sp.web.lists.add('Catalog', '', 100);
      catalog = sp.web.lists.getByTitle('Catalog');
      await catalog.fields.addChoice('Size', { Choices: ['Small', 'Medium', 'Large'] });
      await catalog.fields.addNumber('Weight');
      await catalog.fields.add('Qty', 1);
      await catalog.fields.addBoolean('InStock');
      await catalog.fields.addDateTime('Arrived', { DisplayFormat: 1 });
      await catalog.fields.addText('Sku');
      await catalog.fields.addUser('Owner');
      for (const r of rows) {
        const { Owner, Id: _, ...values } = r;
        const added = await catalog.items.add({ ...values, OwnerId: Owner ? userId.get(Owner)! : null });
        r.Id = added.Id;
      }
    });

    const cases: Array<[string, (r: Row) => boolean]> = [
      ["Size eq 'Small'", (r) => r.Size === 'Small'],
      ["Size ne 'Small'", (r) => r.Size !== 'Small'],
      ["Title eq 'ALPHA'", (r) => r.Title.toLowerCase() === 'alpha'],
      ["Title eq 'O''Brien & Co #1'", (r) => r.Title === "O'Brien & Co #1"],
      ['Weight gt 5', (r) => r.Weight > 5],
      ['Weight ge 20', (r) => r.Weight >= 20],
      ['Qty lt 8', (r) => r.Qty < 8],
      ['Qty le 3', (r) => r.Qty <= 3],
      ['Qty eq 0', (r) => r.Qty === 0],
      ["Size eq 'Small' and InStock eq 1", (r) => r.Size === 'Small' && r.InStock],
      ['InStock eq 0', (r) => !r.InStock],
      ["Size eq 'Large' or Qty gt 9", (r) => r.Size === 'Large' || r.Qty > 9],
      ["(Size eq 'Small' or Size eq 'Large') and Weight lt 10", (r) => (r.Size === 'Small' || r.Size === 'Large') && r.Weight < 10],
      ["startswith(Title,'Al')", (r) => r.Title.toLowerCase().startsWith('al')],
      ["substringof('mid',Title)", (r) => r.Title.toLowerCase().includes('mid')],
      ["substringof('&',Title)", (r) => r.Title.includes('&')],
      ["Arrived gt datetime'2026-02-01T00:00:00Z'", (r) => r.Arrived !== null && r.Arrived > '2026-02-01T00:00:00Z'],
      ["Arrived lt datetime'2026-01-15T00:00:00Z'", (r) => r.Arrived !== null && r.Arrived < '2026-01-15T00:00:00Z'],
      ["Arrived eq datetime'2026-02-01T00:00:00Z'", (r) => r.Arrived === '2026-02-01T00:00:00Z'],
      ['Sku eq null', (r) => r.Sku === null],
      ['Sku ne null', (r) => r.Sku !== null],
      ['Arrived eq null', (r) => r.Arrived === null],
      ['OwnerId eq null', (r) => r.Owner === null],
    ];
    for (const [filter, predicate] of cases) {
      it(`filter: ${filter}`, async () => {
        const expected = idsWhere(predicate);
        const got = await catalog.items.filter(filter).select('Id', 'Title').top(5000)();
        assert.deepEqual(sorted(ids(got)), expected);
        // Without $orderby, items come in ID order.
        assert.deepEqual(ids(got), expected);
      });
    }

    it('filter by a user id and through an expanded user (Owner/Title, Author/Title)', async () => {
      const bob = userId.get('Bob Baker')!;
      const byId = await catalog.items.filter(`OwnerId eq ${bob}`).select('Id')();
      assert.deepEqual(ids(byId), idsWhere((r) => r.Owner === 'Bob Baker'));
      const byTitle = await catalog.items.filter("Owner/Title eq 'Carol Chen'").expand('Owner').select('Id', 'Owner/Title')();
      assert.deepEqual(ids(byTitle), idsWhere((r) => r.Owner === 'Carol Chen'));
      assert.ok(byTitle.every((i: any) => i.Owner.Title === 'Carol Chen'));
      const byAuthor = await catalog.items.filter("Author/Title eq 'Alice Adams'").expand('Author').select('Id')();
      assert.deepEqual(ids(byAuthor), idsWhere(() => true));
      const none = await catalog.items.filter("Author/Title eq 'Bob Baker'").expand('Author').select('Id')();
      assert.deepEqual(ids(none), []);
      const unexpanded = await failure(catalog.items.filter("Owner/Title eq 'Carol Chen'").select('Id')());
      assert.equal(unexpanded.status, 400);
    });

    it('filter on the seeded Tasks by Author/Title, Editor/Title and AuthorId matches the tenant file', async () => {
      const tasks = sp.web.lists.getByTitle('Tasks');
      const bobUpn = 'bob@contoso.onmicrosoft.com';
      const expectedBy = (p: (t: TenantItem) => boolean) => seededTasks.map((t, i) => (p(t) ? i + 1 : 0)).filter(Boolean);
      const byAuthor = await tasks.items.filter("Author/Title eq 'Bob Baker'").expand('Author').select('Id', 'Title')();
      assert.deepEqual(ids(byAuthor), expectedBy((t) => t.author === bobUpn));
      assert.ok(byAuthor.length > 0);
      assert.deepEqual(byAuthor.map((i: any) => i.Title), seededTasks.filter((t) => t.author === bobUpn).map((t) => t.Title));
      const byEditor = await tasks.items.filter("Editor/Title eq 'Bob Baker'").expand('Editor').select('Id')();
      assert.deepEqual(ids(byEditor), expectedBy((t) => t.editor === bobUpn));
      const byAuthorId = await tasks.items.filter(`AuthorId eq ${userId.get('Bob Baker')}`).select('Id')();
      assert.deepEqual(ids(byAuthorId), expectedBy((t) => t.author === bobUpn));
      const notAlice = await tasks.items.filter(`AuthorId ne ${userId.get('Alice Adams')}`).select('Id')();
      assert.deepEqual(ids(notAlice), expectedBy((t) => t.author !== 'alice@contoso.onmicrosoft.com'));
    });

    it('a filter on an unknown column or with bad syntax is refused with 400', async () => {
      const unknown = await failure(catalog.items.filter("Nope eq 'x'")());
      assert.equal(unknown.status, 400);
      assert.equal(unknown.message, "Column 'Nope' does not exist. It may have been deleted by another user.");
      const syntax = await failure(catalog.items.filter("Size eq 'Small' and")());
      assert.equal(syntax.status, 400);
      assert.equal(syntax.message, `The expression "Size eq 'Small' and" is not valid.`);
    });

    const byKeys = (keys: Array<[keyof Row, 'asc' | 'desc']>) => (a: Row, b: Row) => {
      for (const [k, dir] of keys) {
        const x = a[k], y = b[k];
        const norm = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
        let c = 0;
        if (x === null || y === null) c = x === y ? 0 : x === null ? -1 : 1; // null sorts lowest
        else c = norm(x)! < norm(y)! ? -1 : norm(x)! > norm(y)! ? 1 : 0;
        if (c !== 0) return dir === 'desc' ? -c : c;
      }
      return a.Id! - b.Id!;
    };

    it('orderBy on several keys, ascending and descending', async () => {
      const got = await catalog.items.select('Id').orderBy('Size', true).orderBy('Weight', false)();
      assert.deepEqual(ids(got), [...rows].sort(byKeys([['Size', 'asc'], ['Weight', 'desc']])).map((r) => r.Id));
      const got2 = await catalog.items.select('Id').orderBy('Weight', false).orderBy('Title', true)();
      assert.deepEqual(ids(got2), [...rows].sort(byKeys([['Weight', 'desc'], ['Title', 'asc']])).map((r) => r.Id));
      const byTitle = await catalog.items.select('Id', 'Title').orderBy('Title', false)();
      assert.deepEqual(ids(byTitle), [...rows].sort(byKeys([['Title', 'desc']])).map((r) => r.Id));
      const byDate = await catalog.items.select('Id').orderBy('Arrived')();
      assert.deepEqual(ids(byDate), [...rows].sort(byKeys([['Arrived', 'asc']])).map((r) => r.Id));
      const byIdDesc = await catalog.items.select('Id').orderBy('ID', false)();
      assert.deepEqual(ids(byIdDesc), sorted(rows.map((r) => r.Id!)).reverse());
    });

    it('top limits the page; with filter and orderBy it takes the first n of that order', async () => {
      const top3 = await catalog.items.select('Id').top(3)();
      assert.deepEqual(ids(top3), sorted(rows.map((r) => r.Id!)).slice(0, 3));
      const heavy = await catalog.items.select('Id').filter('Weight ge 7').orderBy('Weight', false).orderBy('Qty').top(2)();
      const expected = rows.filter((r) => r.Weight >= 7).sort(byKeys([['Weight', 'desc'], ['Qty', 'asc']])).slice(0, 2).map((r) => r.Id);
      assert.deepEqual(ids(heavy), expected);
    });
  });

  describe('update, etags, delete and recycle', () => {
    it('item.update returns the new etag; a stale etag is refused with 412', async () => {
      const added = await inventory.items.add({ Title: 'Versioned', Qty: 1 });
      const item = inventory.items.getById(added.Id);
      const v1 = added['odata.etag'];
      assert.equal(v1, '"1"');

      const r1 = await item.update({ Qty: 2 });
      assert.equal(r1.etag, '"2"');
      const read = await inventory.items.getById(added.Id)();
      assert.equal(read['odata.etag'], r1.etag);
      assert.equal(read.Qty, 2);

      const r2 = await item.update({ Qty: 3 }, r1.etag);
      assert.equal(r2.etag, '"3"');

      const stale = await failure(item.update({ Qty: 99 }, v1));
      assert.equal(stale.status, 412);
      assert.match(stale.message, /does not match/);
      const after = await inventory.items.getById(added.Id)();
      assert.equal(after.Qty, 3, 'the refused update changed nothing');
      assert.equal(after['odata.etag'], '"3"');

      // The etag as read from the item body works too.
      const r3 = await item.update({ Title: 'Versioned again' }, after['odata.etag']);
      assert.equal(r3.etag, '"4"');
      const finalRead = await inventory.items.getById(added.Id).select('Title', 'Qty', 'Modified', 'Created')();
      assert.equal(finalRead.Title, 'Versioned again');
      assert.equal(finalRead.Qty, 3, 'a MERGE leaves other fields alone');
    });

    it('updating an item that does not exist rejects with 404', async () => {
      const err = await failure(inventory.items.getById(987654).update({ Title: 'x' }));
      assert.equal(err.status, 404);
      assert.equal(err.message, 'Item does not exist. It may have been deleted by another user.');
    });

    it('item.delete removes the item (a stale etag is refused first)', async () => {
      const added = await inventory.items.add({ Title: 'To delete' });
      const countBefore = (await inventory.select('ItemCount')()).ItemCount;
      await inventory.items.getById(added.Id).update({ Title: 'To delete v2' });

      const stale = await failure(inventory.items.getById(added.Id).delete('"1"'));
      assert.equal(stale.status, 412);
      assert.equal((await inventory.items.getById(added.Id)()).Title, 'To delete v2');

      await inventory.items.getById(added.Id).delete();
      const gone = await failure(inventory.items.getById(added.Id)());
      assert.equal(gone.status, 404);
      assert.equal(gone.message, 'Item does not exist. It may have been deleted by another user.');
      assert.equal((await inventory.select('ItemCount')()).ItemCount, countBefore - 1);
      const listed = await inventory.items.filter(`Id eq ${added.Id}`)();
      assert.deepEqual(listed, []);
    });

    it('item.recycle returns the recycle-bin GUID and the item is gone', async () => {
      const added = await inventory.items.add({ Title: 'To recycle' });
      const countBefore = (await inventory.select('ItemCount')()).ItemCount;
      const recycled = await inventory.items.getById(added.Id).recycle();
      assert.equal(typeof recycled, 'string');
      assert.match(recycled as unknown as string, GUID);
      const gone = await failure(inventory.items.getById(added.Id)());
      assert.equal(gone.status, 404);
      assert.equal((await inventory.select('ItemCount')()).ItemCount, countBefore - 1);
      // Ids are never reused.
      const next = await inventory.items.add({ Title: 'after recycle' });
      assert.ok(next.Id > added.Id);
    });
  });

  describe('paging', () => {
    let bulk: IList;
    let bulkIds: number[];
    const rankOf = (i: number) => (i * 37) % 11;
    // Labels a skiptoken must carry intact: separators, quotes, '%', '+', spaces, mixed case.
    const LABELS = ['L1', 'l1', 'a&b', 'x y', '100%', 'a+b', "it's", 'p=q', 'Zed', 'L10', 'L2', '#hash', 'é'];
    const labelOf = (i: number) => (i % 5 === 0 ? null : LABELS[(i * 13) % LABELS.length]!);
    // Dates with many ties and some nulls.
    const whenOf = (i: number) => (i % 7 === 3 ? null : `2026-0${1 + (i % 4)}-1${i % 3}T0${i % 2}:30:00Z`);
    /** Rank, Label and When by item id. */
    const byId = new Map<number, { rank: number; label: string | null; when: string | null }>();

    before(async () => {
      await sp.web.lists.add('Bulk', '', 100);
      bulk = sp.web.lists.getByTitle('Bulk');
      await bulk.fields.addNumber('Rank');
      await bulk.fields.addText('Label');
      await bulk.fields.addDateTime('When', { DisplayFormat: 1 });
      const made = await inParallel(Array.from({ length: 250 }, (_, i) => i), 10, async (i) => {
        const item = await bulk.items.add({ Title: `Item ${i}`, Rank: rankOf(i), Label: labelOf(i), When: whenOf(i) });
        byId.set(item.Id, { rank: rankOf(i), label: labelOf(i), when: whenOf(i) });
        return item.Id as number;
      });
      // Delete a few, so ids have gaps.
      for (const id of [made[10]!, made[20]!, made[200]!]) {
        await bulk.items.getById(id).delete();
        byId.delete(id);
      }
      bulkIds = sorted([...byId.keys()]);
    });

    it('for await over items.top(n) visits every item once, in ID order, and ItemCount agrees', async () => {
      const { ItemCount } = await sp.web.lists.getByTitle('Bulk').select('ItemCount')();
      assert.equal(ItemCount, 247);
      const seen: number[] = [];
      const pageSizes: number[] = [];
      for await (const page of bulk.items.select('Id', 'Title').top(100)) {
        pageSizes.push(page.length);
        seen.push(...ids(page));
      }
      assert.equal(seen.length, ItemCount);
      assert.equal(new Set(seen).size, ItemCount);
      assert.deepEqual(seen, bulkIds);
      assert.deepEqual(pageSizes, [100, 100, 47]);
    });

    it('paging with a filter keeps the filter on every page', async () => {
      const seen: number[] = [];
      for await (const page of bulk.items.select('Id', 'Rank').filter('Rank lt 4').top(30)) {
        assert.ok(page.every((i: any) => i.Rank < 4));
        seen.push(...ids(page));
      }
      assert.deepEqual(seen, bulkIds.filter((id) => byId.get(id)!.rank < 4));
    });

    it('paging ordered by a non-ID field with duplicates visits every item exactly once, in order', async () => {
      const seen: Array<{ Id: number; Rank: number }> = [];
      let pages = 0;
      for await (const page of bulk.items.select('Id', 'Rank').orderBy('Rank').top(40)) {
        pages++;
        seen.push(...page);
      }
      assert.equal(pages, Math.ceil(247 / 40));
      assert.equal(seen.length, 247);
      assert.equal(new Set(seen.map((i) => i.Id)).size, 247);
      const expected = [...bulkIds].sort((a, b) => byId.get(a)!.rank - byId.get(b)!.rank || a - b);
      assert.deepEqual(seen.map((i) => i.Id), expected);
      for (const i of seen) assert.equal(i.Rank, byId.get(i.Id)!.rank);
    });

    /** Descending by `key` (case-insensitive, null lowest so last), then ascending ID. */
    const descendingBy = (key: (id: number) => string | null) => (a: number, b: number) => {
      const x = key(a)?.toLowerCase() ?? null, y = key(b)?.toLowerCase() ?? null;
      if (x !== y) {
        if (x === null) return 1;
        if (y === null) return -1;
        return x < y ? 1 : -1;
      }
      return a - b;
    };

    it('paging ordered descending by a text field with nulls and URL-special values visits every item exactly once', async () => {
      const seen: number[] = [];
      for await (const page of bulk.items.select('Id', 'Label').orderBy('Label', false).top(33)) seen.push(...ids(page));
      assert.equal(seen.length, 247);
      assert.equal(new Set(seen).size, 247);
      // Every value here is ASCII except 'é', which has no upper-case twin: case folding is unambiguous.
      assert.deepEqual(seen, [...bulkIds].sort(descendingBy((id) => byId.get(id)!.label)));
    });

    it('paging ordered descending by a DateTime field with ties and nulls visits every item exactly once', async () => {
      const seen: Array<{ Id: number; When: string | null }> = [];
      for await (const page of bulk.items.select('Id', 'When').orderBy('When', false).top(25)) seen.push(...page);
      assert.equal(seen.length, 247);
      assert.equal(new Set(seen.map((i) => i.Id)).size, 247);
      assert.deepEqual(seen.map((i) => i.Id), [...bulkIds].sort(descendingBy((id) => byId.get(id)!.when)));
      for (const i of seen) assert.equal(i.When, byId.get(i.Id)!.when);
    });

    it('paging ordered by ID descending visits every item once, highest first', async () => {
      const seen: number[] = [];
      for await (const page of bulk.items.select('Id').orderBy('ID', false).top(60)) seen.push(...ids(page));
      assert.deepEqual(seen, [...bulkIds].reverse());
    });

    it('paging ordered by two keys (Rank desc, Label asc) visits every item exactly once, in order', async () => {
      const seen: number[] = [];
      for await (const page of bulk.items.select('Id').orderBy('Rank', false).orderBy('Label').top(17)) seen.push(...ids(page));
      const label = (id: number) => byId.get(id)!.label?.toLowerCase() ?? null;
      const expected = [...bulkIds].sort((a, b) => {
        const r = byId.get(b)!.rank - byId.get(a)!.rank;
        if (r !== 0) return r;
        const x = label(a), y = label(b);
        if (x !== y) return x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        return a - b;
      });
      assert.deepEqual(seen, expected);
    });

    it('paging and filtering by text compare letters case-insensitively beyond ASCII', async () => {
      await sp.web.lists.add('Folding', '', 100);
      const folding = sp.web.lists.getByTitle('Folding');
      const labels = ['ü', 'Ü', 'b', 'Äpfel', 'äpfel', 'B', 'ü', 'a', 'Ü', 'z'];
      const made: Array<{ id: number; label: string }> = [];
      for (const label of labels) made.push({ id: (await folding.items.add({ Title: label })).Id, label });

      const seen: number[] = [];
      for await (const page of folding.items.select('Id', 'Title').orderBy('Title').top(3)) seen.push(...ids(page));
      const expected = [...made].sort((x, y) => {
        const a = x.label.toLowerCase(), b = y.label.toLowerCase();
        return a < b ? -1 : a > b ? 1 : x.id - y.id;
      }).map((m) => m.id);
      assert.deepEqual(seen, expected);

      const umlaut = await folding.items.filter("Title eq 'ü'").select('Id')();
      assert.deepEqual(ids(umlaut), made.filter((m) => m.label.toLowerCase() === 'ü').map((m) => m.id));
      const apples = await folding.items.filter("startswith(Title,'ÄPF')").select('Id')();
      assert.deepEqual(ids(apples), made.filter((m) => m.label.toLowerCase().startsWith('äpf')).map((m) => m.id));
    });

    it('items.top(2).skip(id) starts after that id; skip(id, true) pages backwards', async () => {
      const at = bulkIds[8]!;
      const page = await bulk.items.select('Id').top(2).skip(at)();
      assert.deepEqual(ids(page), [bulkIds[9], bulkIds[10]]);
      // Across a deleted id: the next existing ones.
      const acrossGap = await bulk.items.select('Id').top(3).skip(bulkIds[9]!)();
      assert.deepEqual(ids(acrossGap), bulkIds.slice(10, 13));
      const back = await bulk.items.select('Id').top(2).skip(at, true)();
      assert.deepEqual(ids(back), [bulkIds[6], bulkIds[7]]);
    });

    it('without $top a page holds 100 items', async () => {
      const page = await bulk.items.select('Id')();
      assert.deepEqual(ids(page), bulkIds.slice(0, 100));
    });
  });

  it("the seed's endpoint 1 through PnPjs: Tasks item 1 with Author and Editor expanded", async () => {
    const first = seededTasks[0]!;
    const author = demoUser(first.author!), editor = demoUser(first.editor!);
    const item = await sp.web.lists.getByTitle('Tasks').items.getById(1)
      .select('Title', 'Author/ID', 'Author/Title', 'Author/LastName', 'Editor/ID', 'Editor/Title', 'Editor/LastName')
      .expand('Author', 'Editor')();
    assert.equal(item.Title, first.Title);
    assert.equal(item.Title, 'Write spec');
    assert.equal(item.Author.Title, author.displayName);
    assert.equal(item.Author.Title, 'Alice Adams');
    assert.equal(item.Author.LastName, 'Adams');
    assert.equal(item.Author.ID, userId.get('Alice Adams'));
    assert.equal(item.Editor.Title, editor.displayName);
    assert.equal(item.Editor.Title, 'Bob Baker');
    assert.equal(item.Editor.LastName, 'Baker');
    assert.equal(item.Editor.ID, userId.get('Bob Baker'));
    // Only what was selected: Title plus the two expansions (and odata.* annotations).
    assert.deepEqual(Object.keys(item).filter((k) => !k.startsWith('odata.') && !k.includes('@')).sort(), ['Author', 'Editor', 'Title']);
    assert.deepEqual(Object.keys(item.Author).filter((k) => !k.startsWith('odata.')).sort(), ['ID', 'LastName', 'Title']);
  });
});
