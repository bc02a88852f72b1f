// List views through an unmodified @pnp/sp 4.x client (issue #14): every list starts with
// its default view (All Items, or All Documents in a library), views are added, read by id
// and title, updated, given CAML and columns (SetViewXml, viewFields add/move/remove), rendered
// as HTML (their Where run as CAML) and deleted; each change is read back on a second path. The wire: SP.View's shape
// and the refusals (the default view stays, row limits, unknown columns, bad CAML).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/views/index.js';
import { failure } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-view-types.ts';

describe('PnPjs views against spemu', () => {
  const spemu = usePnpSite();

  it('a new list has its default view; a library has All Documents', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Views A', 'views', 100);
    const views = await list.views();
    assert.deepEqual(views.map((v) => [v.Title, v.DefaultView, v.RowLimit, v.Paged]), [['All Items', true, 30, true]]);
    assert.equal(views[0]!.ServerRelativeUrl, '/sites/dev/Lists/Views A/AllItems.aspx');
    const byDefault = await list.defaultView();
    assert.equal(byDefault.Id, views[0]!.Id);
    assert.equal((await list.getView(views[0]!.Id)()).Title, 'All Items');
    assert.equal((await list.views.getByTitle('all items')()).Id, views[0]!.Id);
    assert.deepEqual((await list.defaultView.fields()).Items, ['LinkTitle']);
    const docs = await spemu.sp.web.lists.getByTitle('Documents').defaultView();
    assert.deepEqual([docs.Title, docs.ServerRelativeUrl], ['All Documents', '/sites/dev/Shared Documents/Forms/AllItems.aspx']);
    assert.deepEqual((await spemu.sp.web.lists.getByTitle('Documents').defaultView.fields()).Items, ['DocIcon', 'LinkFilename', 'Modified', 'Editor']);
  });

  it('add, update, SetViewXml and the view fields; another default; delete', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Views B', 'views', 100);
    const added = await list.views.add('Open ones', false, { RowLimit: 50 });
    assert.deepEqual([added.Title, added.RowLimit, added.DefaultView, added.PersonalView], ['Open ones', 50, false, false]);
    assert.deepEqual((await list.views.getById(added.Id).fields()).Items, ['LinkTitle'], 'a new view starts with the default view\'s columns');

    await list.views.getById(added.Id).update({ RowLimit: 20, Title: 'Open' });
    const updated = await list.views.getById(added.Id)();
    assert.deepEqual([updated.Title, updated.RowLimit], ['Open', 20]);

    const xml = "<View><Query><Where><Eq><FieldRef Name='Title'/><Value Type='Text'>Test</Value></Eq></Where></Query><ViewFields><FieldRef Name='Title'/><FieldRef Name='Created'/></ViewFields><RowLimit Paged='FALSE'>7</RowLimit></View>";
    await list.views.getById(added.Id).setViewXml(xml);
    const set = await list.views.getById(added.Id)();
    assert.equal(set.ViewQuery, "<Where><Eq><FieldRef Name='Title'/><Value Type='Text'>Test</Value></Eq></Where>");
    assert.deepEqual([set.RowLimit, set.Paged], [7, false]);
    assert.match(set.ListViewXml, /<ViewFields><FieldRef Name="Title" \/><FieldRef Name="Created" \/><\/ViewFields>/);

    const fields = list.views.getById(added.Id).fields;
    await fields.add('Modified');
    await fields.add('Created By'); // by title: kept by internal name
    await fields.move('Modified', 0);
    assert.deepEqual((await fields()).Items, ['Modified', 'Title', 'Created', 'Author']);
    await fields.remove('Created');
    assert.equal(await fields.getSchemaXml(), '<FieldRef Name="Modified" /><FieldRef Name="Title" /><FieldRef Name="Author" />');
    await fields.removeAll();
    assert.deepEqual((await fields()).Items, []);

    await list.views.getById(added.Id).update({ DefaultView: true });
    const all = await list.views.select('Title', 'DefaultView')();
    assert.deepEqual(all.map((v) => [v.Title, v.DefaultView]), [['Open', true], ['All Items', false]], 'one default, listed first');
    const old = await list.views.getByTitle('All Items')();
    await list.views.getById(old.Id).delete();
    assert.equal((await failure(list.views.getById(old.Id)())).status, 404);
    assert.deepEqual((await list.views()).map((v) => v.Title), ['Open']);
  });

  it('renderAsHtml shows the view\'s columns and rows in its order and limit, escaped', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Views C', 'views', 100);
    for (const title of ['beta', 'alpha <b>', 'gamma']) await list.items.add({ Title: title });
    const view = await list.views.add('By title', false);
    await list.views.getById(view.Id).setViewXml('<View><Query><OrderBy><FieldRef Name="Title" Ascending="FALSE"/></OrderBy></Query><ViewFields><FieldRef Name="LinkTitle"/><FieldRef Name="ID"/></ViewFields><RowLimit>2</RowLimit></View>');
    const html = await list.views.getById(view.Id).renderAsHtml();
    assert.match(html, /^<table /);
    assert.match(html, /<tr><th>Title<\/th><th>ID<\/th><\/tr><tr><td>gamma<\/td><td>3<\/td><\/tr><tr><td>beta<\/td><td>1<\/td><\/tr><\/table>$/);
    const all = await list.defaultView.renderAsHtml();
    assert.match(all, /alpha &lt;b&gt;/, 'values are escaped');
    // A view's Where runs through the CAML compiler: only the rows it matches, in its order.
    const filtered = await list.views.add('Filtered', false, {
      ViewQuery: '<Where><Contains><FieldRef Name="Title"/><Value Type="Text">A</Value></Contains></Where><OrderBy><FieldRef Name="Title"/></OrderBy>',
    });
    await list.views.getById(filtered.Id).fields.add('ID');
    const html2 = await list.views.getById(filtered.Id).renderAsHtml();
    assert.match(html2, /<tr><td>alpha &lt;b&gt;<\/td><td>2<\/td><\/tr><tr><td>beta<\/td><td>1<\/td><\/tr><tr><td>gamma<\/td><td>3<\/td><\/tr><\/table>$/);
    const narrow = await list.views.add('Narrow', false, { ViewQuery: '<Where><Eq><FieldRef Name="Title"/><Value Type="Text">BETA</Value></Eq></Where>' });
    assert.doesNotMatch(await list.views.getById(narrow.Id).renderAsHtml(), /gamma|alpha/);
    assert.match(await list.views.getById(narrow.Id).renderAsHtml(), /<td>beta<\/td>/);
  });

  it('refusals: the default view stays; row limits, unknown columns and bad CAML; nothing is written', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Views D', 'views', 100);
    const def = await list.defaultView();
    assert.equal((await failure(list.views.getById(def.Id).delete())).status, 400);
    assert.equal((await failure(list.views.getById(def.Id).update({ DefaultView: false }))).status, 400);
    assert.equal((await failure(list.views.add('Too many', false, { RowLimit: 5001 }))).status, 400);
    assert.equal((await failure(list.views.add('', false))).status, 400);
    assert.equal((await failure(list.views.add('Bad CAML', false, { ViewQuery: '<Where><Eq>' }))).status, 400);
    assert.equal((await failure(list.views.getById(def.Id).fields.add('NoSuchColumn'))).status, 400);
    assert.equal((await failure(list.views.getById(def.Id).setViewXml('<NotAView/>'))).status, 400);
    assert.equal((await failure(list.views.getById(def.Id).update({ JSLink: 'x.js' } as any))).status, 501);
    assert.equal((await failure(list.views.getById('00000000-0000-0000-0000-000000000000')())).status, 404);
    assert.deepEqual((await list.views()).map((v) => v.Title), ['All Items']);
    assert.deepEqual((await list.defaultView.fields()).Items, ['LinkTitle']);

    // The verbose wire shape: SP.View addressed below its list.
    const r = await fetch(`${spemu.site}/_api/web/lists/getbytitle('Views D')/views`, { headers: { Accept: 'application/json;odata=verbose' } });
    const body = await r.json() as any;
    assert.equal(body.d.results[0].__metadata.type, 'SP.View');
    assert.match(body.d.results[0].__metadata.uri, /\/_api\/Web\/Lists\(guid'[0-9a-f-]+'\)\/Views\(guid'[0-9a-f-]+'\)$/);
  });
});
