// Modern (client-side) pages through an unmodified @pnp/sp 4.x client: the calls of PnPjs's
// upstream "Clientside Pages" tests (create, promoted state, save and publish, load, text
// controls, sections and columns, promote to news, like and unlike, author byline,
// description, comments off and on) and the "ClientSide Pages" half of its comments tests,
// then the SP.Publishing.SitePage entity and bad input read with plain fetch.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/clientside-pages/index.js';
import '@pnp/sp/comments/clientside-page.js';
import '@pnp/sp/comments/item.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/webs/index.js';
import { ClientsidePageFromFile, ClientsideText, CreateClientsidePage, PromotedState, type IClientsidePage } from '@pnp/sp/clientside-pages/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-page-types.ts';

const SECRET = 'pnp-pages-secret-0123456789-abcdef-0123';
const ALICE = 'alice@contoso.onmicrosoft.com'; // the owner of /sites/dev, who requests without credentials
const BOB = 'bob@contoso.onmicrosoft.com'; // a member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev

type PageJson = {
  Id: number; Title: string; FileName: string; Url: string; Path: { DecodedUrl: string }; PageLayoutType: string; PromotedState: number;
  IsPageCheckedOutToCurrentUser: boolean; FirstPublished: string; Version: string; Description: string | null; AuthorByline: string[];
  BannerImageUrl: string | null; CanvasContent1: string | null; LayoutWebpartsContent: string | null; AbsoluteUrl: string;
  VersionInfo: { LastVersionCreated: string; LastVersionCreatedBy: string }; DoesUserHaveEditPermission: boolean; UniqueId: string;
};
const json = (page: IClientsidePage): PageJson => (page as unknown as { json: PageJson }).json;

describe('PnPjs modern pages against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let site: string;
  const as = async (upn: string) => pnpFor(site, { Authorization: await bearerFor(SECRET, upn) });
  const nometadata = { Accept: 'application/json;odata=nometadata' };

  before(async () => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
  });

  it('addClientsidePage: the file is named from the title at its first save, checked out, not yet published', async () => {
    const page = await sp.web.addClientsidePage('TestingAdd_ab12.aspx');
    const file = await sp.web.getFileByServerRelativePath('/sites/dev/SitePages/TestingAdd_ab12.aspx')();
    assert.equal(file.Name, 'TestingAdd_ab12.aspx');
    assert.equal(file.CheckOutType, 0, 'checked out (online) to its author');
    assert.equal(page.title, 'TestingAdd_ab12');
    assert.equal(json(page).FileName, 'TestingAdd_ab12.aspx');
    assert.equal(json(page).Url, 'SitePages/TestingAdd_ab12.aspx');
    assert.equal(json(page).PageLayoutType, 'Article');
    assert.equal(json(page).IsPageCheckedOutToCurrentUser, true);
    assert.equal(json(page).FirstPublished, '0001-01-01T00:00:00Z');
    assert.equal(json(page).VersionInfo.LastVersionCreatedBy, '');

    // A second page of the same title takes the next free name.
    await sp.web.addClientsidePage('TestingAdd_ab12.aspx');
    const again = await sp.web.getFileByServerRelativePath('/sites/dev/SitePages/TestingAdd_ab121.aspx')();
    assert.equal(again.Name, 'TestingAdd_ab121.aspx');
  });

  it('CreateClientsidePage with PromoteOnPublish: save(true) publishes it as news; SingleWebPartAppPage keeps its layout', async () => {
    const created = await CreateClientsidePage(sp.web, 'Testing_pr01.aspx', 'title');
    assert.equal(created.title, 'title', 'the title set after the first save lives in the client until the next');
    const p = await sp.web.addClientsidePage('Testing_pr02.aspx', 'A Title', 'Article', PromotedState.PromoteOnPublish);
    assert.equal(json(p).PromotedState, 1);
    assert.equal(await p.save(true), true);
    assert.equal(json(p).PromotedState, 2, 'published: now news');
    assert.equal(json(p).IsPageCheckedOutToCurrentUser, false);
    assert.equal(json(p).Title, 'A Title');
    assert.notEqual(json(p).FirstPublished, '0001-01-01T00:00:00Z');
    assert.ok(json(p).VersionInfo.LastVersionCreatedBy.toLowerCase().endsWith(ALICE));
    const file = await sp.web.getFileByServerRelativePath('/sites/dev/SitePages/Testing_pr02.aspx')();
    assert.equal(file.CheckOutType, 2, 'checked in');

    const app = await CreateClientsidePage(sp.web, 'Testing_app1.aspx', 'SingleWebPartAppPage', 'SingleWebPartAppPage');
    assert.equal(app.pageLayout, 'SingleWebPartAppPage');
  });

  it('load: ClientsidePageFromFile and web.loadClientsidePage read the page back', async () => {
    await sp.web.addClientsidePage('Testing_ld01.aspx');
    const page = await ClientsidePageFromFile(sp.web.getFileByServerRelativePath('/sites/dev/SitePages/Testing_ld01.aspx'));
    assert.equal(page.title, 'Testing_ld01');
    const again = await sp.web.loadClientsidePage('/sites/dev/SitePages/Testing_ld01.aspx');
    assert.equal(json(again).Id, json(page).Id);
  });

  it('text controls, columns and a vertical section round trip through CanvasContent1', async () => {
    const page = await sp.web.addClientsidePage('Testing_tx01.aspx');
    page.addSection().addControl(new ClientsideText('This is test text!!!'));
    await page.save();
    const read = await sp.web.loadClientsidePage('/sites/dev/SitePages/Testing_tx01.aspx');
    assert.equal(read.sections.length, 1);
    assert.equal((read.sections[0]!.columns[0]!.controls[0] as ClientsideText).text, 'This is test text!!!');

    const cols = await sp.web.addClientsidePage('Testing_cl01.aspx');
    cols.sections = [];
    await cols.save();
    assert.equal(cols.sections.length, 0);
    cols.addSection();
    cols.sections[0]!.addColumn(6);
    cols.sections[0]!.addColumn(6);
    const vert = cols.addVerticalSection();
    vert.addControl(new ClientsideText('Hello.'));
    vert.addControl(new ClientsideText("I'm second."));
    await cols.save();
    await cols.load();
    assert.equal(cols.sections.filter((s) => s.layoutIndex === 1)[0]!.columns.length, 2);
    assert.deepEqual(cols.sections.filter((s) => s.layoutIndex === 1)[0]!.columns.map((c) => c.factor), [6, 6]);
    const web = await sp.web.select('ServerRelativeUrl')();
    const full = await sp.web.loadClientsidePage(`${web.ServerRelativeUrl}/${json(cols).Path.DecodedUrl}`);
    assert.equal(full.hasVerticalSection, true);
    assert.equal(full.verticalSection!.columns[0]!.controls.length, 2);
    assert.match((full.verticalSection!.columns[0]!.controls[1] as ClientsideText).text, /I'm second\./);
  });

  it('promoteToNews answers true and makes the page news; a page never published is published first', async () => {
    const page = await sp.web.addClientsidePage('Testing_nw01.aspx');
    await page.save();
    assert.equal(await page.promoteToNews(), true);
    await page.load();
    assert.equal(json(page).PromotedState, 2);

    const fresh = await sp.web.addClientsidePage('Testing_nw02.aspx');
    assert.equal(await fresh.promoteToNews(), true);
    await fresh.load();
    assert.equal(json(fresh).PromotedState, 2);
    assert.notEqual(json(fresh).FirstPublished, '0001-01-01T00:00:00Z');
  });

  it('like, unlike and getLikedByInformation', async () => {
    const page = await sp.web.addClientsidePage('Testing_lk01.aspx');
    await page.like();
    let info = await page.getLikedByInformation() as unknown as { isLikedByUser: boolean; likeCount: number; likedBy: Array<{ loginName: string }> };
    assert.equal(info.isLikedByUser, true);
    assert.equal(info.likeCount, 1);
    assert.ok(info.likedBy[0]!.loginName.toLowerCase().endsWith(ALICE));
    await page.unlike();
    info = await page.getLikedByInformation() as unknown as typeof info;
    assert.equal(info.likeCount, 0);
    assert.equal(info.isLikedByUser, false);
  });

  it('setAuthorById and setAuthorByLoginName: the byline saved and read back', async () => {
    const page = await sp.web.addClientsidePage('Testing_au01.aspx');
    await page.save();
    await page.load();
    const web = await sp.web.select('ServerRelativeUrl')();
    const pageUrl = `${web.ServerRelativeUrl}/${json(page).Url}`;
    const login = `i:0#.f|membership|${BOB}`;
    const bob = await sp.web.ensureUser(login);

    await page.setAuthorById(bob.Id);
    await page.save();
    let read = await sp.web.loadClientsidePage(pageUrl);
    // The byline is the user's UPN (siteusers' UserPrincipalName, as PnPjs reads it).
    assert.equal(read.authorByLine?.toLowerCase(), BOB);
    assert.deepEqual(json(read).AuthorByline.map((a) => a.toLowerCase()), [BOB]);

    await page.setAuthorByLoginName(login);
    await page.save();
    read = await sp.web.loadClientsidePage(pageUrl);
    assert.equal(read.authorByLine?.toLowerCase(), BOB);
  });

  it('description: set, saved, read back', async () => {
    const page = await sp.web.addClientsidePage('Testing_ds01.aspx');
    await page.save();
    await page.load();
    page.description = 'Test Desc 0123456789';
    await page.save();
    const read = await sp.web.loadClientsidePage(`/sites/dev/${json(page).Url}`);
    assert.equal(read.description, 'Test Desc 0123456789');
  });

  it('banner image: set from a file of the site, saved as its preview URL', async () => {
    await sp.web.getFolderByServerRelativePath('/sites/dev/SiteAssets').files.addUsingPath('banner.png', new Uint8Array([137, 80, 78, 71]).buffer, { Overwrite: true });
    const page = await sp.web.addClientsidePage('Testing_bn01.aspx');
    page.setBannerImage('/sites/dev/SiteAssets/banner.png');
    await page.save();
    const read = await sp.web.loadClientsidePage(`/sites/dev/${json(page).Url}`);
    const file = await sp.web.getFileByServerRelativePath('/sites/dev/SiteAssets/banner.png').select('UniqueId')();
    assert.match(read.bannerImageUrl, /\/_layouts\/15\/getpreview\.ashx\?/);
    assert.ok(read.bannerImageUrl.includes(file.UniqueId), read.bannerImageUrl);
  });

  it('comments off and on: the item says so, and a comment is refused while off', async () => {
    const page = await sp.web.addClientsidePage('Testing_cm01.aspx');
    await page.disableComments();
    assert.equal(page.commentsDisabled, true);
    await page.load();
    assert.equal(page.commentsDisabled, true);
    const refused = await failure(page.addComment('not now'));
    assert.equal(refused.status, 400);
    await page.enableComments();
    await page.load();
    assert.equal(page.commentsDisabled, false);
    const c = await page.addComment('now');
    assert.ok(parseInt(c.id, 10) > 0);
  });

  it('comments on a page (the upstream ClientSide Pages block): add, mention, getById, clear, like, unlike, replies', async () => {
    const page = await CreateClientsidePage(sp.web, 'CommentPage_ab12', 'CommentPage_ab12', 'Article');
    await page.save();
    const login = `i:0#.f|membership|${BOB}`;
    await sp.web.ensureUser(login);
    const comment = await page.addComment('A test comment');
    assert.ok(parseInt(comment.id, 10) > 0);
    const mention = await page.addComment({
      mentions: [{ loginName: login, email: BOB, name: 'Test User' }],
      text: `<a data-sp-mention-user-id="${login}" href="mailto&#58;${BOB}" tabindex="-1">Test User</a> This is the test comment with at mentions`,
    });
    assert.ok((mention.mentions ?? []).some((m) => m.loginName.toLowerCase() === login));
    const again = await page.getCommentById(comment.id);
    assert.equal(again.id, comment.id);

    const other = await CreateClientsidePage(sp.web, 'CommentPage_cd34', 'CommentPage_cd34', 'Article');
    await other.save();
    for (let i = 0; i < 4; i++) await other.addComment('A test comment');
    assert.equal((await other.getComments()).length, 4);
    await other.clearComments();
    assert.equal((await other.getComments()).length, 0);
    await other.delete();
    assert.equal((await failure(sp.web.getFileByServerRelativePath('/sites/dev/SitePages/CommentPage_cd34.aspx')())).status, 404);

    const liked = await page.addComment('A test like comment');
    await liked.like();
    assert.equal((await page.getCommentById(liked.id)).likeCount, 1);
    await liked.unlike();
    assert.equal((await page.getCommentById(liked.id)).likeCount, 0);
    const reply = await liked.replies.add('Reply');
    assert.equal(reply.text, 'Reply');
    for (const t of ['Reply 2', 'Reply 3', 'Reply 4']) await liked.replies.add(t);
    assert.equal((await liked.replies()).length, 4);
  });

  it('the SitePage entity on the wire; an unknown id is SharePoint\'s 404; a visitor reads but may not create; bad input is a 400', async () => {
    const page = await sp.web.addClientsidePage('Testing_wr01.aspx');
    await page.save();
    const id = json(page).Id;
    const r = await fetch(`${site}/_api/sitepages/pages(${id})`, { headers: { Accept: 'application/json' } });
    assert.equal(r.status, 200);
    const body = await r.json() as Record<string, unknown> & PageJson;
    assert.equal(body['odata.type'], 'SP.Publishing.SitePage');
    assert.equal(body.AbsoluteUrl, `${spemu.server.url}/sites/dev/SitePages/Testing_wr01.aspx`);
    assert.match(body.Version, /^\d+\.0$/, 'published: a major version');
    assert.equal(body.DoesUserHaveEditPermission, true);
    assert.deepEqual(body.Path, { DecodedUrl: 'SitePages/Testing_wr01.aspx' });
    assert.ok(typeof body.CanvasContent1 === 'string' && JSON.parse(body.CanvasContent1).length >= 1);

    const verbose = await fetch(`${site}/_api/sitepages/pages(${id})`, { headers: { Accept: 'application/json;odata=verbose' } });
    const d = ((await verbose.json()) as { d: { __metadata: { type: string; uri: string }; AuthorByline: { results: string[] }; VersionInfo: { __metadata: { type: string } } } }).d;
    assert.equal(d.__metadata.type, 'SP.Publishing.SitePage');
    assert.ok(d.__metadata.uri.endsWith(`/_api/SitePages/Pages(${id})`), d.__metadata.uri);
    assert.deepEqual(d.AuthorByline.results, []);
    assert.equal(d.VersionInfo.__metadata.type, 'SP.Publishing.SitePageVersionInfo');

    const listed = await fetch(`${site}/_api/sitepages/pages`, { headers: nometadata });
    const names = ((await listed.json()) as { value: Array<{ FileName: string }> }).value.map((p) => p.FileName);
    assert.ok(names.includes('Home.aspx') && names.includes('Testing_wr01.aspx'), names.join());

    const missing = await fetch(`${site}/_api/sitepages/pages(99999)`, { headers: { Accept: 'application/json' } });
    assert.equal(missing.status, 404);
    const error = ((await missing.json()) as { 'odata.error': { code: string; message: { value: string } } })['odata.error'];
    assert.equal(error.code, '-2130575338, System.ArgumentException');
    assert.equal(error.message.value, 'Item does not exist. It may have been deleted by another user.');

    const dave = await as(DAVE);
    const seen = await dave.web.loadClientsidePage('/sites/dev/SitePages/Testing_wr01.aspx');
    assert.equal(json(seen).DoesUserHaveEditPermission, false);
    assert.equal((await failure(dave.web.addClientsidePage('Visitor.aspx'))).status, 403);
    assert.equal((await failure(seen.save())).status, 403);

    const post = (path: string, payload: unknown) => fetch(`${site}/_api/sitepages/${path}`, {
      method: 'POST', headers: { ...nometadata, 'Content-Type': 'application/json' }, body: JSON.stringify(payload),
    });
    assert.equal((await post('pages', { PageLayoutType: 'Nonsense' })).status, 400);
    assert.equal((await post('pages', { PromotedState: 7 })).status, 400);
    assert.equal((await post(`pages(${id})/savepage`, { Nonsense: 1 })).status, 400);
    // A byline naming nobody: EnsureUser's own failure (SharePoint answers it as a 500 SPException).
    const nobody = await post(`pages(${id})/savepage`, { AuthorByline: ['nobody@nowhere.example'] });
    assert.equal(nobody.status, 500);
    assert.match(((await nobody.json()) as { 'odata.error': { message: { value: string } } })['odata.error'].message.value, /nobody@nowhere\.example could not be found/);
    assert.equal((await post('pages(99999)/publish', {})).status, 404);
  });

  it('savepageasdraft, discardpage, demoteFromNews on the wire; SetCommentsDisabled is a page\'s alone', async () => {
    const headers = { ...nometadata, 'Content-Type': 'application/json' };
    const post = async (path: string, payload?: unknown) => {
      const r = await fetch(`${site}/_api/${path}`, { method: 'POST', headers, ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
      return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? await r.json() as Record<string, unknown> : undefined };
    };
    // Pages made at once each get a name of their own.
    const many = await Promise.all([1, 2, 3, 4].map(() => post('sitepages/pages', { PageLayoutType: 'article' })));
    assert.deepEqual(many.map((m) => m.status), [201, 201, 201, 201]);
    assert.equal(new Set(many.map((m) => m.body!.FileName)).size, 4);
    assert.ok(many.every((m) => m.body!.PageLayoutType === 'Article'), 'the layout as SharePoint spells it');
    const created = await post('sitepages/pages', { PageLayoutType: 'Article' });
    assert.equal(created.status, 201);
    const id = created.body!.Id as number;
    assert.match(String(created.body!.FileName), /^Untitled_\d+\.aspx$/);
    assert.deepEqual((await post(`sitepages/pages(${id})/savepageasdraft`, { Title: 'Draft Page', CanvasContent1: '[]' })).body, { value: true });
    let page = await (await fetch(`${site}/_api/sitepages/pages(${id})`, { headers: nometadata })).json() as PageJson;
    assert.equal(page.FileName, 'Draft-Page.aspx');
    assert.equal(page.IsPageCheckedOutToCurrentUser, false, 'a draft save checks the page in');
    assert.equal(page.CanvasContent1, '[]');

    const out = await post(`sitepages/pages(${id})/checkoutpage`);
    assert.equal((out.body as unknown as PageJson).IsPageCheckedOutToCurrentUser, true);
    assert.equal((await post(`sitepages/pages(${id})/savepage`, { CanvasContent1: '[{"controlType":0}]' })).status, 200);
    const discarded = await post(`sitepages/pages(${id})/discardpage`);
    assert.equal((discarded.body as unknown as PageJson).IsPageCheckedOutToCurrentUser, false);

    assert.deepEqual((await post(`sitepages/pages(${id})/promoteToNews`)).body, { value: true });
    assert.deepEqual((await post(`sitepages/pages(${id})/demoteFromNews`)).body, { value: true });
    page = await (await fetch(`${site}/_api/sitepages/pages(${id})`, { headers: nometadata })).json() as PageJson;
    assert.equal(page.PromotedState, 0);

    // The item's CommentsDisabled: a page's own switch; an ordinary list's items have none to set.
    const { list } = await sp.web.lists.ensure('Pages Plain List');
    const { Id: itemId } = await list.items.add({ Title: 'plain' });
    const plain = await list.items.getById(itemId).select('CommentsDisabled')() as { CommentsDisabled: boolean };
    assert.equal(plain.CommentsDisabled, false);
    const refused = await fetch(`${site}/_api/web/lists/getbytitle('Pages Plain List')/items(${itemId})/SetCommentsDisabled(true)`, {
      method: 'POST', headers: { ...headers, 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }, body: '{}',
    });
    assert.equal(refused.status, 400);
    const bad = await fetch(`${site}/_api/web/lists/getbytitle('Site Pages')/items(${id})/SetCommentsDisabled('maybe')`, {
      method: 'POST', headers: { ...headers, 'X-HTTP-Method': 'MERGE' }, body: '{}',
    });
    assert.equal(bad.status, 400);
    const visitor = await fetch(`${site}/_api/web/lists/getbytitle('Site Pages')/items(${id})/SetCommentsDisabled(true)`, {
      method: 'POST', headers: { ...headers, 'X-HTTP-Method': 'MERGE', Authorization: await bearerFor(SECRET, DAVE) }, body: '{}',
    });
    assert.equal(visitor.status, 403);
  });

  it('a Site Pages library without the page fields (made before spemu knew pages) gains them at the first page', async () => {
    const library = sp.web.lists.getByTitle('Site Pages');
    await library.fields.getByInternalNameOrTitle('CanvasContent1').delete();
    await library.fields.getByInternalNameOrTitle('PromotedState').delete();
    assert.equal((await library.fields.filter("InternalName eq 'CanvasContent1'")()).length, 0);
    const page = await sp.web.addClientsidePage('Testing_lz01.aspx', 'Lazy', 'Article', PromotedState.PromoteOnPublish);
    page.addSection().addControl(new ClientsideText('back again'));
    await page.save();
    const read = await sp.web.loadClientsidePage(`/sites/dev/${json(page).Url}`);
    assert.equal((read.sections[0]!.columns[0]!.controls[0] as ClientsideText).text, 'back again');
    assert.equal(json(read).PromotedState, 2);
    assert.equal((await library.fields.filter("InternalName eq 'CanvasContent1'")()).length, 1);
  });

  it('Home.aspx of a site and of a new subweb is a published home page PnPjs loads', async () => {
    const home = await sp.web.loadClientsidePage('/sites/dev/SitePages/Home.aspx');
    assert.equal(home.pageLayout, 'Home');
    assert.equal(json(home).Title, 'Home');
    assert.equal((json(home) as unknown as { IsWebWelcomePage: boolean }).IsWebWelcomePage, true);
    assert.notEqual(json(home).FirstPublished, '0001-01-01T00:00:00Z');
    await sp.web.webs.add('Pages Sub', 'pagessub');
    const sub = pnpFor(`${site}/pagessub`);
    const subHome = await sub.web.loadClientsidePage('/sites/dev/pagessub/SitePages/Home.aspx');
    assert.equal(subHome.pageLayout, 'Home');
    const page = await sub.web.addClientsidePage('Sub_pg01.aspx');
    assert.equal(json(page).AbsoluteUrl, `${site}/pagessub/SitePages/Sub_pg01.aspx`);
  });

  it('in a Site Pages library with minor versions (as SharePoint Online has it) a page is a draft until published as 1.0', async () => {
    await sp.web.webs.add('Pages Minor', 'pagesminor');
    const sub = pnpFor(`${site}/pagesminor`);
    await sub.web.lists.getByTitle('Site Pages').update({ EnableMinorVersions: true });
    const page = await sub.web.addClientsidePage('Minor_pg01.aspx');
    assert.match(json(page).Version, /^0\.\d+$/, 'a draft');
    page.addSection().addControl(new ClientsideText('draft text'));
    await page.save(false);
    assert.match(json(page).Version, /^0\.\d+$/);
    assert.equal(json(page).IsPageCheckedOutToCurrentUser, true);
    await page.save(true);
    assert.equal(json(page).Version, '1.0');
    assert.equal(json(page).IsPageCheckedOutToCurrentUser, false);
    page.description = 'second round';
    await page.save(true);
    assert.equal(json(page).Version, '2.0');
    assert.equal(json(page).Description, 'second round');
  });

  it('a page checked out to a member is not saved by another; publishing ends the hold', async () => {
    const bob = await as(BOB);
    const page = await bob.web.addClientsidePage('Testing_co01.aspx');
    const id = json(page).Id;
    const aliceSave = await fetch(`${site}/_api/sitepages/pages(${id})/savepage`, {
      method: 'POST', headers: { ...nometadata, 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'Hijack' }),
    });
    assert.equal(aliceSave.status, 423, 'held by another');
    assert.equal(await page.save(true), true);
    assert.equal(json(page).Title, 'Testing_co01');
    assert.equal(json(page).IsPageCheckedOutToCurrentUser, false);
  });
  it('a page with unique permissions the member may not see: left out of the pages a member lists, and not saved by the member', async () => {
    const page = await sp.web.addClientsidePage('Private_up01.aspx');
    await page.save(false);
    const id = json(page).Id;
    const broke = await fetch(`${site}/_api/web/lists/getbytitle('Site Pages')/items(${id})/breakroleinheritance(copyRoleAssignments=false,clearSubscopes=true)`, { method: 'POST', headers: nometadata });
    assert.equal(broke.status, 200);
    const bobAuth = { ...nometadata, Authorization: await bearerFor(SECRET, BOB) };
    const listed = await fetch(`${site}/_api/sitepages/pages`, { headers: bobAuth });
    assert.equal(listed.status, 200);
    const ids = ((await listed.json()) as { value: Array<{ Id: number }> }).value.map((p) => p.Id);
    assert.ok(ids.length > 0, 'the member still lists the pages it may see');
    assert.equal(ids.includes(id), false, 'the private page is not listed');
    const saved = await fetch(`${site}/_api/sitepages/pages(${id})/savepage`, {
      method: 'POST', headers: { ...bobAuth, 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'Hijack' }),
    });
    assert.ok(saved.status === 403 || saved.status === 404, String(saved.status));
    const read = await fetch(`${site}/_api/sitepages/pages(${id})?$select=Title`);
    assert.notEqual(((await read.json()) as { Title?: string }).Title, 'Hijack');
  });
});
