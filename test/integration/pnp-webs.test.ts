// Subwebs through an unmodified @pnp/sp 4.x client (issue #14): `webs.add` as PnPjs's own
// test suite starts (a subweb named by a GUID), nested URLs that resolve to the deepest web,
// lists, items and files living in a subweb (its own `_api`, its files' URLs, download.aspx),
// ParentWeb, webinfos, getSubwebsFilteredForCurrentUser, openWebById, update, and delete with
// everything in it. Each result is checked on a second path (plain fetch, the parent's view).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { spfi } from '@pnp/sp';
import { Web } from '@pnp/sp/webs/index.js';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/batching.js';
import '@pnp/sp/site-users/index.js';
import { failure } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

describe('PnPjs subwebs against spemu', () => {
  const spemu = usePnpSite();

  const api = async (url: string, init: RequestInit = {}) => {
    const r = await fetch(url, { ...init, headers: { Accept: 'application/json;odata=nometadata', ...init.headers } });
    return { status: r.status, body: await r.json() as Record<string, any> };
  };

  it('webs.add makes a subweb as the upstream suite does; it answers at its own URL with its own libraries', async () => {
    const leaf = randomUUID();
    const added = await spemu.sp.web.webs.add('PnP-JS-Core Testing', leaf) as unknown as Record<string, any>;
    assert.equal(added.Url, `${spemu.site}/${leaf}`);
    assert.equal(added.ServerRelativeUrl, `/sites/dev/${leaf}`);
    assert.equal(added['odata.id'], `${spemu.site}/${leaf}/_api/Web`, 'clients take the new web\'s URL from its id');
    assert.equal(added.WebTemplate, 'STS');

    const sub = spfi([spemu.sp.web, added.Url as string]);
    const web = await sub.web.select('Title', 'Id', 'ServerRelativeUrl')();
    assert.deepEqual([web.Title, web.Id, web.ServerRelativeUrl], ['PnP-JS-Core Testing', added.Id, `/sites/dev/${leaf}`]);
    const lists = (await sub.web.lists.select('Title', 'BaseTemplate', 'ParentWebUrl')()).filter((l) => !l.Hidden);
    assert.deepEqual(lists.map((l) => l.Title).sort(), ['Documents', 'Site Assets', 'Site Pages']);
    assert.ok(lists.every((l) => l.ParentWebUrl === `/sites/dev/${leaf}`));
    // The parent's own lists are not the subweb's, nor the other way round.
    assert.ok((await spemu.sp.web.lists.select('Title')()).some((l) => l.Title === 'Tasks'));
    assert.equal((await failure(sub.web.lists.getByTitle('Tasks')())).status, 404);

    // Users and groups are the site collection's.
    const [parentUsers, subUsers] = await Promise.all([spemu.sp.web.siteUsers.select('Id')(), sub.web.siteUsers.select('Id')()]);
    assert.deepEqual(subUsers.map((u) => u.Id), parentUsers.map((u) => u.Id));

    const ctx = await api(`${spemu.site}/${leaf}/_api/contextinfo`, { method: 'POST' });
    assert.equal(ctx.body.WebFullUrl, `${spemu.site}/${leaf}`);
    assert.equal(ctx.body.SiteFullUrl, spemu.site);
  });

  it('nested subwebs: the deepest web answers; ParentWeb, webs, webinfos, filtered subwebs and openWebById agree', async () => {
    const outer = await spemu.sp.web.webs.add('Outer', 'outer') as unknown as Record<string, any>;
    const outerSp = spfi([spemu.sp.web, outer.Url as string]);
    const inner = await outerSp.web.webs.add('Inner', 'inner', 'the inner one') as unknown as Record<string, any>;
    assert.equal(inner.ServerRelativeUrl, '/sites/dev/outer/inner');
    const innerWeb = Web([spemu.sp.web, inner.Url as string]);
    assert.equal((await innerWeb.select('Title')()).Title, 'Inner');

    const parent = await innerWeb.getParentWeb();
    assert.equal((await parent.select('Title', 'Id')()).Id, outer.Id, 'getParentWeb opens the parent');
    const viaExpand = await innerWeb.select('ParentWeb/Title', 'ParentWeb/ServerRelativeUrl').expand('ParentWeb')() as any;
    assert.equal(viaExpand.ParentWeb.ServerRelativeUrl, '/sites/dev/outer');
    const rootParent = await api(`${spemu.site}/_api/web?$select=Title,ParentWeb/Id&$expand=ParentWeb`);
    assert.equal(rootParent.body.ParentWeb, null, 'a root web has no parent');

    const children = await outerSp.web.webs.select('Title', 'Url')();
    assert.deepEqual(children.map((w) => [w.Title, w.Url]), [['Inner', inner.Url]]);
    const infos = await outerSp.web.webinfos.select('Title', 'ServerRelativeUrl', 'Description')();
    assert.deepEqual(infos.map((w: any) => [w.Title, w.ServerRelativeUrl, w.Description]), [['Inner', '/sites/dev/outer/inner', 'the inner one']]);
    const filtered = await outerSp.web.getSubwebsFilteredForCurrentUser()();
    assert.deepEqual(filtered.map((w: any) => w.Id), [inner.Id]);
    assert.ok((await spemu.sp.web.webs.select('Title')()).some((w) => w.Title === 'Outer'), 'the site lists its direct subwebs');
    assert.ok(!(await spemu.sp.web.webs.select('Title')()).some((w) => w.Title === 'Inner'), 'but not their subwebs');

    const opened = await spemu.sp.site.openWebById(inner.Id as string);
    assert.equal((await opened.web.select('Title')()).Title, 'Inner');

    // A path below a web that is no web names nothing.
    assert.equal((await api(`${spemu.site}/outer/nothing-here/_api/web`)).status, 404);
  });

  it('a subweb holds its own lists, items and files: its _api, its file URLs and download.aspx serve them', async () => {
    const added = await spemu.sp.web.webs.add('Files', 'files-web') as unknown as Record<string, any>;
    const sub = spfi([spemu.sp.web, added.Url as string]);
    const list = await sub.web.lists.add('Notes', '', 100);
    void list;
    await sub.web.lists.getByTitle('Notes').items.add({ Title: 'in the subweb' });
    assert.deepEqual((await sub.web.lists.getByTitle('Notes').items.select('Title')()).map((i) => i.Title), ['in the subweb']);

    await sub.web.getFolderByServerRelativePath('/sites/dev/files-web/Shared Documents').files.addUsingPath('hello.txt', 'hello from a subweb');
    assert.equal(await sub.web.getFileByServerRelativePath('/sites/dev/files-web/Shared Documents/hello.txt').getText(), 'hello from a subweb');
    const direct = await fetch(`${spemu.site}/files-web/Shared%20Documents/hello.txt`);
    assert.equal(direct.status, 200);
    assert.equal(await direct.text(), 'hello from a subweb');
    const download = await fetch(`${spemu.site}/files-web/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent('/sites/dev/files-web/Shared Documents/hello.txt')}`);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'hello from a subweb');
    // The parent web does not see the subweb's file as its own.
    assert.equal((await failure(spemu.sp.web.getFileByServerRelativePath('/sites/dev/files-web/Shared Documents/hello.txt')())).status, 404);

    // A batch sent to the subweb runs its parts there.
    const [batched, execute] = sub.batched();
    const titles = batched.web.lists.getByTitle('Notes').items.select('Title')();
    const web = batched.web.select('Title')();
    await execute();
    assert.deepEqual([(await titles).map((i) => i.Title), (await web).Title], [['in the subweb'], 'Files']);
  });

  it('update and delete: a subweb with subwebs is refused, then goes with everything in it; the root web stays', async () => {
    const top = await spemu.sp.web.webs.add('Doomed', 'doomed') as unknown as Record<string, any>;
    const topWeb = Web([spemu.sp.web, top.Url as string]);
    await topWeb.update({ Title: 'Doomed, renamed', Description: 'about to go' });
    const renamed = await topWeb.select('Title', 'Description')();
    assert.deepEqual([renamed.Title, renamed.Description], ['Doomed, renamed', 'about to go']);
    const child = await spfi([spemu.sp.web, top.Url as string]).web.webs.add('Child', 'child') as unknown as Record<string, any>;
    await spfi([spemu.sp.web, child.Url as string]).web.getFolderByServerRelativePath('/sites/dev/doomed/child/Shared Documents').files.addUsingPath('a.txt', 'bytes');

    const refused = await failure(topWeb.delete());
    assert.equal(refused.status, 500);
    assert.match(refused.message, /You can't delete a site that has subsites/);
    await Web([spemu.sp.web, child.Url as string]).delete();
    await topWeb.delete();
    assert.equal((await api(`${spemu.site}/doomed/_api/web`)).status, 404);
    assert.equal((await api(`${spemu.site}/doomed/child/Shared%20Documents/a.txt`)).status, 404);
    assert.ok(!(await spemu.sp.web.webs.select('Title')()).some((w) => w.Title.startsWith('Doomed')));

    const root = await failure(spemu.sp.web.delete());
    assert.equal(root.status, 500);
    assert.equal((await spemu.sp.web.select('Title')()).Title.length > 0, true, 'the root web is still there');
    const unknown = await failure(topWeb.update({ NoSuchProperty: 1 }));
    assert.equal(unknown.status, 404, 'a deleted web is gone for updates too');
  });

  it('refusals: a taken URL, a URL of a library, bad names, templates and unique permissions spemu does not provision', async () => {
    await spemu.sp.web.webs.add('Taken', 'taken');
    const taken = await failure(spemu.sp.web.webs.add('Again', 'TAKEN'));
    assert.deepEqual([taken.status, taken.code], [500, '-2147024713, Microsoft.SharePoint.SPException']);
    assert.equal(taken.message, 'The Web site address "/sites/dev/TAKEN" is already in use.');
    assert.equal((await failure(spemu.sp.web.webs.add('Library', 'Shared Documents'))).status, 500);
    assert.equal((await failure(spemu.sp.web.webs.add('Bad', 'a:b'))).status, 400);
    assert.equal((await failure(spemu.sp.web.webs.add('Bad', 'trailing.'))).status, 400);
    assert.equal((await failure(spemu.sp.web.webs.add('Bad', '_layouts'))).status, 400);
    assert.equal((await failure(spemu.sp.web.webs.add('Lists', 'Lists'))).status, 500, 'the web\'s Lists folder holds its lists');
    assert.equal((await failure(spemu.sp.web.webs.add('', 'no-title'))).status, 400);
    const template = await failure(spemu.sp.web.webs.add('Blog', 'blog', '', 'BLOG#0'));
    assert.equal(template.status, 501);
    const unique = await failure(spemu.sp.web.webs.add('Unique', 'unique', '', 'STS', 1033, false));
    assert.equal(unique.status, 501);
    assert.match(unique.message, /unique permissions/);
    const names = (await spemu.sp.web.webs.select('Title')()).map((w) => w.Title);
    for (const refused of ['Again', 'Library', 'Bad', 'Blog', 'Unique']) assert.ok(!names.includes(refused), `${refused} was not made`);
    const settings = await failure(spemu.sp.web.update({ QuickLaunchEnabled: false }));
    assert.equal(settings.status, 501);
    const bogus = await failure(spemu.sp.web.update({ NoSuchProperty: 1 }));
    assert.equal(bogus.status, 400);
  });
});
