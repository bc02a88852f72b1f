// A web's navigation through an unmodified @pnp/sp 4.x client (issue #14): the quick launch a
// new web starts with, nodes added, read, updated, moved, nested and deleted on both menus,
// kept per web; the navigation service's MenuState and MenuNodeKey answered from the quick
// launch; and the refusals.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/navigation/index.js';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-navigation-types.ts';

describe('PnPjs navigation against spemu', () => {
  const spemu = usePnpSite();

  it('a web starts with Home, Documents, Pages and Site contents in its quick launch; the top bar is empty', async () => {
    const quick = await spemu.sp.web.navigation.quicklaunch();
    assert.deepEqual(quick.map((n) => [n.Title, n.Url]), [
      ['Home', '/sites/dev'], ['Documents', '/sites/dev/Shared Documents/Forms/AllItems.aspx'], ['Pages', '/sites/dev/SitePages'],
      ['Site contents', '/sites/dev/_layouts/15/viewlsts.aspx'],
    ]);
    assert.deepEqual(await spemu.sp.web.navigation.topNavigationBar(), []);
    await spemu.sp.web.webs.add('Nav sub', 'nav-sub');
    const sub = pnpFor(`${spemu.site}/nav-sub`);
    assert.equal((await sub.web.navigation.quicklaunch())[0]!.Url, '/sites/dev/nav-sub', 'a new subweb has its own');
  });

  it('nodes are added, read, updated, nested, moved and deleted', async () => {
    const top = spemu.sp.web.navigation.topNavigationBar;
    const a = await top.add('Alpha', '/sites/dev/SitePages/a.aspx');
    const b = await top.add('Beta', 'https://example.com/beta', false);
    assert.deepEqual([b.Title, b.IsExternal, b.IsVisible], ['Beta', true, false]);
    assert.equal((await top.getById(a.Id)()).Title, 'Alpha');
    await top.getById(a.Id).update({ Title: 'Alpha 2' });
    assert.equal((await top.getById(a.Id)()).Title, 'Alpha 2');
    const child = await top.getById(a.Id).children.add('Child', '/sites/dev/child');
    assert.deepEqual((await top.getById(a.Id).children()).map((n) => n.Title), ['Child']);
    await top.moveAfter(a.Id, b.Id);
    assert.deepEqual((await top()).map((n) => n.Title), ['Beta', 'Alpha 2']);
    await top.moveAfter(a.Id, 0);
    assert.deepEqual((await top()).map((n) => n.Title), ['Alpha 2', 'Beta']);
    await top.getById(a.Id).delete();
    assert.deepEqual((await top()).map((n) => n.Title), ['Beta']);
    assert.equal((await failure(top.getById(child.Id)())).status, 404, 'the node\'s children went with it');
    assert.equal((await failure(top.add('', '/x'))).status, 400);
    assert.equal((await failure(top.getById(999999)())).status, 404);
  });

  it('the navigation service: MenuState from the root or a node, MenuNodeKey by URL', async () => {
    const state = await spemu.sp.navigation.getMenuState(undefined, 3);
    assert.equal(state.StartingNodeKey, '1025');
    assert.deepEqual(state.Nodes.map((n) => n.Title), ['Home', 'Documents', 'Pages', 'Site contents']);
    const pages = state.Nodes[2]!;
    await spemu.sp.web.navigation.quicklaunch.getById(Number(pages.Key)).children.add('Wiki', '/sites/dev/SitePages/Wiki.aspx');
    const below = await spemu.sp.navigation.getMenuState(pages.Key);
    assert.equal(below.StartingNodeKey, pages.Key);
    assert.deepEqual(below.Nodes.map((n) => n.Title), ['Wiki']);
    assert.equal(await spemu.sp.navigation.getMenuNodeKey('/sites/dev/SitePages'), pages.Key);
    assert.equal(await spemu.sp.navigation.getMenuNodeKey(pages.SimpleUrl, 'CurrentNavSiteMapProviderNoEncode'), pages.Key);
    await assert.rejects(spemu.sp.navigation.getMenuNodeKey('/some/page/not/there.aspx'));
  });
});
