// CAML through an unmodified @pnp/sp 4.x client (issue #14): getItemsByCAMLQuery (list/getitems),
// renderListDataAsStream and renderListData as PnPjs's upstream lists.ts calls them, on the demo
// Tasks list; folder scopes on a library; SharePoint's errors for unknown fields and bad CAML;
// the wire shape of RenderListDataAsStream; and the list view threshold, judged as `$filter` is.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/site-users/web.js';
import { RenderListDataOptions } from '@pnp/sp/lists/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';

const where = (condition: string, rest = '') => `<View><Query><Where>${condition}</Where>${rest}</Query></View>`;
const eq = (field: string, type: string, value: string, ref = '') => `<Eq><FieldRef Name="${field}"${ref}/><Value Type="${type}">${value}</Value></Eq>`;

describe('CAML through PnPjs against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let site: string;
  before(() => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
  });
  const tasks = () => sp.web.lists.getByTitle('Tasks');
  const titles = async (viewXml: string, folder?: string) =>
    ((await tasks().getItemsByCAMLQuery({ ViewXml: viewXml, ...(folder ? { FolderServerRelativeUrl: folder } : {}) })) as Array<{ Title: string }>).map((i) => i.Title);

  it('getItemsByCAMLQuery: each comparison, In, And/Or, OrderBy and RowLimit select what $filter would', async () => {
    assert.deepEqual(await titles(where(eq('Status', 'Choice', 'Done'))), ['Write spec', 'Set up CI pipeline']);
    assert.deepEqual(await titles(where(`<And>${eq('Priority', 'Number', '1')}<Neq><FieldRef Name="Status"/><Value Type="Choice">Done</Value></Neq></And>`)),
      ['Design database schema', 'Implement OData filter parser']);
    assert.deepEqual(await titles(where('<Geq><FieldRef Name="Priority"/><Value Type="Number">3</Value></Geq>',
      '<OrderBy><FieldRef Name="Title" Ascending="FALSE"/></OrderBy>')), ['Write user documentation', 'Review security checklist']);
    assert.deepEqual(await titles(where('<In><FieldRef Name="ID"/><Values><Value Type="Counter">2</Value><Value Type="Counter">7</Value></Values></In>')),
      ['Set up CI pipeline', 'Write user documentation']);
    assert.deepEqual(await titles(where('<Contains><FieldRef Name="Title"/><Value Type="Text">WRITE</Value></Contains>')),
      ['Write spec', 'Write user documentation']);
    assert.deepEqual(await titles(where('<BeginsWith><FieldRef Name="Title"/><Value Type="Text">de</Value></BeginsWith>')), ['Design database schema']);
    assert.deepEqual(await titles(where('<IsNull><FieldRef Name="Due"/></IsNull>')), ['Migrate legacy records']);
    assert.equal((await titles(where('<IsNotNull><FieldRef Name="AssignedTo"/></IsNotNull>'))).length, 7);
    assert.deepEqual(await titles(where(`<Or>${eq('Done', 'Boolean', '1')}<Lt><FieldRef Name="Priority"/><Value Type="Number">2</Value></Lt></Or>`)),
      ['Write spec', 'Set up CI pipeline', 'Design database schema', 'Implement OData filter parser']);
    assert.deepEqual(await titles('<View><Query><OrderBy><FieldRef Name="ID" Ascending="FALSE"/></OrderBy></Query><RowLimit>2</RowLimit></View>'),
      ['Review security checklist', 'Write user documentation']);
  });

  it('dates compare by day unless IncludeTimeValue; lookups and people by id or by their shown text; <UserID/>', async () => {
    assert.deepEqual(await titles(where(eq('Due', 'DateTime', '2026-01-09T03:00:00Z'))), ['Write spec'], 'the whole day, whatever the time');
    assert.deepEqual(await titles(where('<Eq><FieldRef Name="Due"/><Value Type="DateTime" IncludeTimeValue="TRUE">2026-01-09T03:00:00Z</Value></Eq>')), []);
    assert.deepEqual(await titles(where('<Leq><FieldRef Name="Due"/><Value Type="DateTime">2026-01-16</Value></Leq>')), ['Write spec', 'Set up CI pipeline']);
    assert.deepEqual(await titles(where(eq('Project', 'Lookup', 'CRM Migration'))), ['Migrate legacy records']);
    assert.deepEqual(await titles(where(eq('Project', 'Lookup', '2', ' LookupId="TRUE"'))), ['Customer portal sign-in page']);
    const me = await sp.web.currentUser();
    const mine = await titles(where(eq('AssignedTo', 'Integer', '<UserID/>', ' LookupId="TRUE"')));
    const byText = await titles(where(eq('AssignedTo', 'User', me.Title)));
    assert.ok(mine.length > 0);
    assert.deepEqual(byText, mine);
  });

  it('getitems honours $select and $expand, ViewFields do not narrow it, and ListItemCollectionPosition pages', async () => {
    const res = await fetch(`${site}/_api/web/lists/getbytitle('Tasks')/getitems?$select=Title,AssignedTo/Title&$expand=AssignedTo`, {
      method: 'POST', headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: { ViewXml: where(eq('ID', 'Counter', '3'), '') } }),
    });
    assert.equal(res.status, 200);
    const viaItems = await fetch(`${site}/_api/web/lists/getbytitle('Tasks')/items?$filter=ID eq 3&$select=Title,AssignedTo/Title&$expand=AssignedTo`, {
      headers: { Accept: 'application/json;odata=nometadata' },
    });
    const value = (await res.json() as { value: Array<Record<string, unknown>> }).value;
    assert.deepEqual(value, (await viaItems.json() as { value: unknown[] }).value, 'the same entities the items collection answers');
    assert.deepEqual(Object.keys(value[0]!).sort(), ['AssignedTo', 'Title']);
    // The upstream test's call: ViewFields naming something that is no field, RoleAssignments expanded.
    const upstream = await tasks().getItemsByCAMLQuery({
      ViewXml: "<View><ViewFields><FieldRef Name='Title' /><FieldRef Name='RoleAssignments' /></ViewFields><RowLimit>5</RowLimit></View>",
    }, 'RoleAssignments') as Array<{ Title: string; Priority: number }>;
    assert.equal(upstream.length, 5);
    assert.equal(upstream[0]!.Priority, 1, 'every field comes back, as from the items collection');
    const next = await tasks().getItemsByCAMLQuery({
      ViewXml: '<View><RowLimit>3</RowLimit></View>', ListItemCollectionPosition: { PagingInfo: 'Paged=TRUE&p_ID=3' },
    }) as Array<{ Id: number }>;
    assert.deepEqual(next.map((i) => i.Id), [4, 5, 6]);
  });

  it('folder scopes: the folder given, FilesOnly, Recursive without folders, RecursiveAll', async () => {
    const root = '/sites/dev/Shared Documents';
    await sp.web.getFolderByServerRelativePath(root).folders.addUsingPath('CamlA');
    await sp.web.getFolderByServerRelativePath(`${root}/CamlA`).folders.addUsingPath('Inner');
    await sp.web.getFolderByServerRelativePath(root).folders.addUsingPath('CamlAB');
    await sp.web.getFolderByServerRelativePath(`${root}/CamlA`).files.addUsingPath('a.txt', 'a');
    await sp.web.getFolderByServerRelativePath(`${root}/CamlA/Inner`).files.addUsingPath('b.txt', 'b');
    await sp.web.getFolderByServerRelativePath(`${root}/CamlAB`).files.addUsingPath('c.txt', 'c');
    const names = async (scope: string, folder?: string) => {
      const res = await fetch(`${site}/_api/web/lists/getbytitle('Documents')/getitems?$select=FileLeafRef`, {
        method: 'POST', headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: { ViewXml: `<View${scope ? ` Scope="${scope}"` : ''}/>`, ...(folder ? { FolderServerRelativeUrl: folder } : {}) } }),
      });
      assert.equal(res.status, 200);
      return ((await res.json() as { value: Array<{ FileLeafRef: string }> }).value).map((i) => i.FileLeafRef).sort();
    };
    assert.deepEqual(await names('', `${root}/CamlA`), ['Inner', 'a.txt']);
    assert.deepEqual(await names('FilesOnly', `${root}/CamlA`), ['a.txt']);
    assert.deepEqual(await names('Recursive', `${root}/CamlA`), ['a.txt', 'b.txt'], 'not CamlAB\'s, whose name only starts the same');
    assert.deepEqual(await names('RecursiveAll', `${root}/CamlA`), ['Inner', 'a.txt', 'b.txt']);
    const everything = await names('Recursive');
    for (const n of ['a.txt', 'b.txt', 'c.txt']) assert.ok(everything.includes(n));
    assert.ok(!everything.includes('CamlA'));
    assert.ok((await names('')).includes('CamlA') && !(await names('')).includes('a.txt'), 'the root folder by default');
  });

  it('unknown fields, bad structure and malformed XML get SharePoint\'s errors', async () => {
    const unknown = await failure(tasks().getItemsByCAMLQuery({ ViewXml: where(eq('Nope', 'Text', 'x')) }));
    assert.deepEqual([unknown.status, unknown.code], [500, '-2130575340, Microsoft.SharePoint.SPException']);
    assert.match(unknown.message, /^One or more field types are not installed properly\./);
    assert.equal((await failure(tasks().getItemsByCAMLQuery({ ViewXml: where(eq('Id', 'Counter', '1')) }))).status, 500, 'names are exact: Id is not ID');
    assert.equal((await failure(tasks().getItemsByCAMLQuery({ ViewXml: '<View><Query><OrderBy><FieldRef Name="Nope"/></OrderBy></Query></View>' }))).status, 500);
    const lonely = await failure(tasks().getItemsByCAMLQuery({ ViewXml: where(`<Or>${eq('Title', 'Text', 'x')}</Or>`) }));
    assert.equal(lonely.code, '-2130575340, Microsoft.SharePoint.SPException');
    const malformed = await failure(tasks().getItemsByCAMLQuery({ ViewXml: '<View><Query><Where><Eq>' }));
    assert.deepEqual([malformed.status, malformed.code], [400, '-2147467259, Microsoft.SharePoint.SPException']);
    assert.equal((await failure(tasks().getItemsByCAMLQuery({ ViewXml: where(eq('Priority', 'Number', 'abc')) }))).status, 400);
  });

  it('renderListDataAsStream and renderListData as the upstream lists.ts calls them', async () => {
    const { list } = await sp.web.lists.ensure('CAML render', '', 100);
    for (const title of ['Item 1', 'Item 2', 'Item 3']) await list.items.add({ Title: title });
    const plain = await list.renderListDataAsStream({ ViewXml: '<View><RowLimit>5</RowLimit></View>' });
    assert.deepEqual(plain.Row.map((r: { Title: string }) => r.Title), ['Item 1', 'Item 2', 'Item 3']);
    const advanced = await list.renderListDataAsStream({
      AddRequiredFields: true, ViewXml: '<View><RowLimit>5</RowLimit></View>',
      RenderOptions: [RenderListDataOptions.ContextInfo, RenderListDataOptions.ListSchema, RenderListDataOptions.MenuView],
    }) as unknown as { ListSchema: { Field: Array<{ Name: string }> }; listTitle: string };
    assert.equal(advanced.listTitle, 'CAML render');
    assert.ok(advanced.ListSchema.Field.some((f) => f.Name === 'Title'));
    const filtered = await list.renderListDataAsStream({ AddRequiredFields: false, ViewXml: '<View><RowLimit>5</RowLimit></View>' }, {},
      new Map([['FilterField1', 'Title'], ['FilterValue1', 'Item 2']]));
    assert.deepEqual(filtered.Row.map((r: { Title: string }) => r.Title), ['Item 2']);
    const legacy = await list.renderListData('<View><RowLimit>5</RowLimit></View>');
    assert.equal(legacy.Row.length, 3);
    assert.equal(legacy.FirstRow, 1);
  });

  it('RenderListDataAsStream on the wire: plain JSON, values as strings, pages through NextHref', async () => {
    const post = (query: string, parameters: object) => fetch(`${site}/_api/web/lists/getbytitle('Tasks')/RenderListDataAsStream${query}`, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose', 'Content-Type': 'application/json' },
      body: JSON.stringify({ parameters }),
    });
    const viewXml = '<View><Query><OrderBy><FieldRef Name="ID"/></OrderBy></Query><ViewFields><FieldRef Name="Title"/><FieldRef Name="Priority"/><FieldRef Name="Done"/><FieldRef Name="Due"/><FieldRef Name="AssignedTo"/><FieldRef Name="Project"/></ViewFields><RowLimit Paged="TRUE">3</RowLimit></View>';
    const first = await post('', { ViewXml: viewXml, RenderOptions: 2 });
    assert.equal(first.status, 200);
    assert.match(first.headers.get('content-type')!, /^application\/json/);
    const page = await first.json() as Record<string, any>;
    assert.equal(page.d, undefined, 'not wrapped in verbose\'s d');
    assert.deepEqual([page.FirstRow, page.LastRow, page.RowLimit, page.Row.length], [1, 3, 3, 3]);
    const row = page.Row[0];
    assert.deepEqual([row.ID, row.Title, row.Priority, row['Priority.'], row.Done, row['Done.value'], row.FSObjType, row.PermMask],
      ['1', 'Write spec', '1', '1', 'Yes', '1', '0', '0x7fffffffffffffff']);
    assert.deepEqual([row.Due, row['Due.']], ['1/9/2026 5:00 PM', '2026-01-09T17:00:00Z']);
    assert.equal(row.FileRef, '/sites/dev/Lists/Tasks/1_.000');
    assert.equal(row.AssignedTo[0].title, 'Alice Adams');
    assert.equal(row.AssignedTo[0].email, 'alice@contoso.com');
    assert.deepEqual(row.Project, [{ lookupId: 1, lookupValue: 'spemu', isSecretFieldValue: false }]);
    assert.match(page.NextHref, /^\?Paged=TRUE&p_ID=3&PageFirstRow=4&View=/);
    const second = await (await post(page.NextHref, { ViewXml: viewXml, RenderOptions: 2 })).json() as Record<string, any>;
    assert.deepEqual(second.Row.map((r: { ID: string }) => r.ID), ['4', '5', '6']);
    assert.deepEqual([second.FirstRow, second.LastRow], [4, 6]);
    const third = await (await post('', { ViewXml: viewXml, Paging: 'Paged=TRUE&p_ID=6', RenderOptions: 2 })).json() as Record<string, any>;
    assert.deepEqual(third.Row.map((r: { ID: string }) => r.ID), ['7', '8']);
    assert.equal(third.NextHref, undefined, 'no page after the last');
    const sorted = await (await post('?SortField=Title&SortDir=Desc', { ViewXml: '<View><RowLimit>2</RowLimit></View>' })).json() as Record<string, any>;
    assert.deepEqual(sorted.Row.map((r: { Title: string }) => r.Title), ['Write user documentation', 'Write spec']);
  });
});

describe('CAML and the list view threshold', () => {
  // The demo Tasks list has 8 items: above a threshold of 5. Priority is indexed, Status is not.
  const spemu = useTestServer({ listViewThreshold: 5 });
  let sp: SPFI;
  before(() => { sp = pnpFor(spemu.server.site('/sites/dev')); });

  it('an unindexed CAML filter or sort is refused as $filter is; an indexed one answers', async () => {
    const tasks = sp.web.lists.getByTitle('Tasks');
    for (const viewXml of [where(eq('Status', 'Choice', 'Done')), '<View><Query><OrderBy><FieldRef Name="Status"/></OrderBy></Query></View>']) {
      const caml = await failure(tasks.getItemsByCAMLQuery({ ViewXml: viewXml }));
      const odata = await failure(tasks.items.filter("Status eq 'Done'")());
      assert.deepEqual(caml, odata);
      assert.deepEqual([caml.status, caml.code], [500, '-2147024860, Microsoft.SharePoint.SPQueryThrottledException']);
      assert.equal((await failure(tasks.renderListDataAsStream({ ViewXml: viewXml }))).status, 500);
    }
    const indexed = await tasks.getItemsByCAMLQuery({ ViewXml: where(eq('Priority', 'Number', '1')) }) as Array<{ Id: number }>;
    assert.deepEqual(indexed.map((i) => i.Id), (await tasks.items.filter('Priority eq 1').select('Id')()).map((i) => i.Id));
  });
});
