// Sharing through an unmodified @pnp/sp 4.x client (`@pnp/sp/sharing`): shareWith on an item,
// a folder and a file really gives access (checked with the other user's own credentials) and
// unshare takes it back; sharing links are records per object and kind that getShareLink,
// getSharingInformation, getObjectSharingSettings, deleteSharingLinkByKind and unshareLink
// agree on; checkSharingPermissions says who may see what; only owners share. Plain fetch
// checks the wire (verbose and light) and SP.Web.ShareObject. Requests act as the owner
// (Alice) unless a user's credentials are given.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/sharing/index.js';
import { SharingLinkKind, SharingRole } from '@pnp/sp/sharing/index.js';
import '../helpers/pnp-file-types.ts';
import '../helpers/pnp-sharing-types.ts';
import { demoBasic, demoDigest, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

const BOB = 'bob@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';
const ERIN = 'erin@contoso.onmicrosoft.com';
const basic = demoBasic;
const login = (upn: string) => `i:0#.f|membership|${upn}`;

describe('PnPjs sharing against spemu', () => {
  const spemu = usePnpSite();

  const digest = async (upn: string): Promise<string> => (await demoDigest(spemu.site, upn))!;
  const as = (upn: string): Promise<SPFI> => pnpAsDemoUser(spemu.site, upn);

  it('a folder: shared with Everyone except external users, every user of the tenant reads it', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Shared library', '', 101);
    const folderInfo = await list.rootFolder.folders.addUsingPath('Team folder');
    const folder = spemu.sp.web.getFolderByServerRelativePath(folderInfo.ServerRelativeUrl);
    const { Id: itemId } = await folder.listItemAllFields.select('Id')();
    await list.breakRoleInheritance(false, false);
    const dave = await as(DAVE);
    const daveItem = dave.web.lists.getByTitle('Shared library').items.getById(itemId);
    assert.equal((await failure(daveItem())).status, 403);

    const everyone = await spemu.sp.web.ensureUser('everyone except external users');
    assert.match(everyone.LoginName, /^c:0-\.f\|rolemanager\|spo-grid-all-users\//);
    const result = await folder.shareWith(everyone.LoginName, SharingRole.Edit);
    assert.equal(result.ErrorMessage, null);
    assert.equal((await daveItem.select('FileLeafRef')()).FileLeafRef, 'Team folder', 'dave is one of everyone');
    // Erin holds no role on the site and has never signed in to it: the claim covers her too.
    const erin = await as(ERIN);
    assert.equal((await erin.web.lists.getByTitle('Shared library').items.getById(itemId).select('FileLeafRef')()).FileLeafRef, 'Team folder');
    assert.equal((await erin.web.currentUser()).LoginName, login(ERIN), 'a site user now');
    await dave.web.lists.getByTitle('Shared library').items.getById(itemId).update({ Title: 'edited by dave' });

    const check = await folder.checkSharingPermissions([{ alias: 'everyone except external users' }]);
    assert.deepEqual(check.map((c: any) => [c.resolvedEntity, c.hasAccess, c.role]), [[everyone.LoginName, true, SharingRole.Edit]]);
    const settings = await folder.getObjectSharingSettings(true);
    assert.equal(settings.ItemName, 'Team folder');
    assert.equal(settings.CanShareFolder, true);

    await folder.unshare();
    assert.equal((await failure(daveItem())).status, 403);
    assert.equal((await failure(erin.web.lists.getByTitle('Shared library').items.getById(itemId)())).status, 403);
    await list.resetRoleInheritance();
  });

  it('an item: shareWith gives a user with no access read access, unshare takes it back', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Shared items', '', 100);
    const { Id: id } = await list.items.add({ Title: 'for erin' });
    await list.breakRoleInheritance(false, false);
    // Erin holds no role on the site; a row of its users lets her sign in to what is shared with her.
    await spemu.sp.web.ensureUser(login(ERIN));
    const erin = await as(ERIN);
    const erinItem = erin.web.lists.getByTitle('Shared items').items.getById(id);
    assert.equal((await failure(erinItem())).status, 403, 'nothing shared with her yet');

    const result = await list.items.getById(id).shareWith(login(ERIN), SharingRole.View);
    assert.equal(result.ErrorMessage, null);
    assert.equal(result.StatusCode, 0);
    assert.equal(result.Name, 'for erin');
    assert.deepEqual(result.UniquelyPermissionedUsers!.map((u: any) => [u.User, u.CurrentRole]), [[login(ERIN), SharingRole.View]]);
    assert.equal((await erinItem.select('Title')()).Title, 'for erin', 'shared: erin reads the item');
    assert.equal((await failure(erin.web.lists.getByTitle('Shared items').items.getById(id).update({ Title: 'x' }))).status, 403, 'View is read only');
    assert.equal((await failure(erin.web.lists.getByTitle('Shared items').items())).status, 403, 'the list itself stays closed');
    assert.equal((await list.items.getById(id).getSharingInformation()).hasUniquePermissions, true);

    const check = await list.items.getById(id).checkSharingPermissions([{ alias: login(ERIN) }, { email: DAVE }, { alias: 'nobody@contoso.onmicrosoft.com' }]);
    assert.deepEqual(check.map((c: any) => [c.inputEntity, c.resolvedEntity, c.hasAccess, c.role]), [
      [login(ERIN), login(ERIN), true, SharingRole.View], [DAVE, login(DAVE), false, SharingRole.None],
      ['nobody@contoso.onmicrosoft.com', null, false, SharingRole.None],
    ], 'shared with erin only, not with the visitors');

    const info = await list.items.getById(id).getSharingInformation();
    assert.equal(info.sharedObjectType, 3);
    assert.equal(info.currentRole, SharingRole.Owner);
    const principals = (info.permissionsInformation as any).principals.map((p: any) => [p.principal.loginName, p.role]);
    assert.deepEqual(principals.map(([l]: [string]) => l).sort(), [login('alice@contoso.onmicrosoft.com'), login(ERIN)]);

    const unshared = await list.items.getById(id).unshare();
    assert.equal(unshared.ErrorMessage, null);
    assert.equal((await failure(erinItem())).status, 403, 'unshared: inheriting the closed list again');
    assert.equal((await list.items.getById(id).getSharingInformation()).hasUniquePermissions, false);
    await list.resetRoleInheritance();
  });

  it('a file: links per kind, listed by getSharingInformation, removed by deleteSharingLinkByKind and unshareLink', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Link library', '', 101);
    await list.rootFolder.files.addUsingPath('report.docx', 'some bytes');
    const file = list.rootFolder.files.getByUrl('report.docx');

    const org = await file.getShareLink(SharingLinkKind.OrganizationView);
    assert.equal(org.sharingLinkInfo.LinkKind, SharingLinkKind.OrganizationView);
    assert.match(org.sharingLinkInfo.Url, new RegExp(`^${new URL(spemu.site).origin}/:w:/s/dev/E[\\w-]{21}$`));
    assert.equal(org.sharingLinkInfo.IsActive, true);
    assert.equal(org.sharingLinkInfo.AllowsAnonymousAccess, false);
    const follow = (auth: string) => fetch(org.sharingLinkInfo.Url, { redirect: 'manual', headers: { Authorization: auth } });
    const followed = await follow(basic(DAVE));
    assert.equal(followed.status, 302, 'a link leads to the file once signed in');
    assert.equal(followed.headers.get('location'), `${new URL(spemu.site).origin}/sites/dev/Link%20library/report.docx`);
    assert.equal((await follow(`Basic ${Buffer.from(`${DAVE}:wrong`).toString('base64')}`)).status, 401, 'signed in or nothing');
    const again = await file.getShareLink(SharingLinkKind.OrganizationView);
    assert.equal(again.sharingLinkInfo.ShareId, org.sharingLinkInfo.ShareId, 'one link per kind');
    assert.equal(again.sharingLinkInfo.Url, org.sharingLinkInfo.Url);

    const expires = new Date(Date.now() + 5 * 86400_000);
    const anon = await file.getShareLink(SharingLinkKind.AnonymousView, expires);
    assert.equal(anon.sharingLinkInfo.AllowsAnonymousAccess, true);
    assert.equal(anon.sharingLinkInfo.Expiration, expires.toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const racing = await Promise.all(Array.from({ length: 5 }, () => file.getShareLink(SharingLinkKind.OrganizationEdit)));
    assert.equal(new Set(racing.map((r) => r.sharingLinkInfo.ShareId)).size, 1, 'racing requests make one link');
    const edit = await file.getShareLink(SharingLinkKind.OrganizationEdit);
    assert.equal(edit.sharingLinkInfo.ShareId, racing[0]!.sharingLinkInfo.ShareId);
    assert.equal(edit.sharingLinkInfo.IsEditLink, true);

    const kinds = async () => ((await file.getSharingInformation()).permissionsInformation as any).links.map((l: any) => l.linkDetails.LinkKind);
    assert.deepEqual(await kinds(), [2, 3, 4]);
    const settings = await file.getObjectSharingSettings();
    assert.equal(settings.CanCurrentUserRetrieveReadonlyLink, true);

    await file.deleteSharingLinkByKind(SharingLinkKind.OrganizationView);
    assert.deepEqual(await kinds(), [3, 4]);
    assert.equal((await follow(basic(DAVE))).status, 404, 'a removed link leads nowhere');
    await file.unshareLink(SharingLinkKind.OrganizationEdit, '4f0b9b3e-0000-4000-8000-000000000000');
    assert.deepEqual(await kinds(), [3, 4], 'another ShareId removes nothing');
    await file.unshareLink(SharingLinkKind.OrganizationEdit, edit.sharingLinkInfo.ShareId);
    assert.deepEqual(await kinds(), [4]);
    await file.unshareLink(SharingLinkKind.AnonymousView);
    assert.deepEqual(await kinds(), []);
  });

  it('only those who may manage permissions share; a member still reads the sharing information', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Member list', '', 100);
    const { Id: id } = await list.items.add({ Title: 'theirs' });
    const bob = await as(BOB);
    const item = bob.web.lists.getByTitle('Member list').items.getById(id);
    assert.equal((await failure(item.shareWith(login(DAVE), SharingRole.Edit))).status, 403);
    assert.equal((await failure(item.getShareLink(SharingLinkKind.OrganizationView))).status, 403);
    assert.equal((await failure(item.unshare())).status, 403);
    const info = await item.getSharingInformation();
    assert.equal(info.canAddInternalPrincipal, false);
    assert.equal(info.currentRole, SharingRole.Edit);
    assert.equal((await list.items.getById(id).getSharingInformation()).hasUniquePermissions, false, 'nothing changed');
  });

  it('on the wire: SP.SharingResult and SP.ShareLinkResponse in verbose and nometadata; SP.Web.ShareObject by URL', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Wire library', '', 101);
    await list.rootFolder.files.addUsingPath('notes.txt', 'text');
    const { Id: id } = await list.rootFolder.files.getByUrl('notes.txt').listItemAllFields.select('Id')();
    const alice = 'alice@contoso.onmicrosoft.com';
    const post = async (path: string, body: unknown, accept: string) => fetch(`${spemu.site}/_api/${path}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { Authorization: basic(alice), 'X-RequestDigest': await digest(alice), Accept: accept, 'Content-Type': 'application/json' },
    });
    const items = `web/lists/getbytitle('Wire library')/items(${id})`;
    const verbose = await post(`${items}/shareLink`, { request: { createLink: true, emailData: null, settings: { expiration: null, linkKind: 2 } } }, 'application/json;odata=verbose');
    assert.equal(verbose.status, 200);
    const v = (await verbose.json()) as any;
    assert.equal(v.d.ShareLink.__metadata.type, 'SP.ShareLinkResponse');
    assert.match(v.d.ShareLink.sharingLinkInfo.Url, /\/:t:\/s\/dev\/E/);

    const share = await post(`SP.Web.ShareObject?$expand=UsersWithAccessRequests,GroupsSharedWith`, {
      url: `${new URL(spemu.site).origin}/sites/dev/Wire library/notes.txt`, peoplePickerInput: JSON.stringify([{ Key: login(ERIN) }]),
      roleValue: 'role: 1073741827', groupId: 0, propagateAcl: false, sendEmail: false, includeAnonymousLinkInEmail: false, emailSubject: '', emailBody: '', useSimplifiedRoles: true,
    }, 'application/json;odata=verbose');
    assert.equal(share.status, 200);
    const s = (await share.json()) as any;
    assert.equal(s.d.__metadata.type, 'SP.SharingResult');
    assert.equal(s.d.ErrorMessage, null);
    assert.deepEqual(s.d.GroupsSharedWith.results, []);
    assert.equal(s.d.UniquelyPermissionedUsers.results[0].CurrentRole, SharingRole.Edit);
    const erin = await as(ERIN);
    await erin.web.lists.getByTitle('Wire library').items.getById(id).update({ Title: 'erin contributes' });

    const none = await post(`${items}/shareObject`, { peoplePickerInput: '[{"Key":"i:0#.f|membership|nobody@contoso.onmicrosoft.com"}]', roleValue: 'role:1073741826' }, 'application/json;odata=nometadata');
    const n = (await none.json()) as any;
    assert.equal(n.StatusCode, -1, 'NoResolvedUsers');
    assert.equal(typeof n.ErrorMessage, 'string');
    const bad = await post(`${items}/shareObject`, { peoplePickerInput: 'not json', roleValue: 'role:1073741826' }, 'application/json;odata=nometadata');
    assert.equal(bad.status, 400);
    const badRole = await post(`${items}/shareObject`, { peoplePickerInput: JSON.stringify([{ Key: login(DAVE) }]), roleValue: 'role:42' }, 'application/json;odata=nometadata');
    assert.equal(badRole.status, 404);

    const unshared = await post('web/unshareObject', { url: `${spemu.site}/Wire library/notes.txt` }, 'application/json;odata=nometadata');
    assert.equal(unshared.status, 200);
    assert.equal(((await unshared.json()) as any).StatusCode, 0);
    assert.equal((await list.items.getById(id).getSharingInformation()).hasUniquePermissions, false);

    const info = await post(`${items}/getSharingInformation?$select=*&$expand=permissionsInformation,pickerSettings`, { request: null }, 'application/json;odata=verbose');
    assert.equal(info.status, 200);
    const i = (await info.json()) as any;
    assert.equal(i.d.__metadata.type, 'SP.Sharing.SharingInformation');
    assert.equal(i.d.permissionsInformation.__metadata.type, 'SP.Sharing.PermissionCollection');

    // What PnPjs's web.shareWith would send (its own look-up of the level fails in the client
    // before anything is sent: `_api/web/roledefinitions` is made a relative URL): the web's
    // aclinv.aspx URL and Read.
    const web = await post(`SP.Web.ShareObject?$expand=UsersWithAccessRequests,GroupsSharedWith`, {
      url: `${spemu.site}/_layouts/15/aclinv.aspx?forSharing=1&mbypass=1`, peoplePickerInput: JSON.stringify([{ Key: login(ERIN) }]), roleValue: 'role: 1073741826',
      includeAnonymousLinkInEmail: false, propagateAcl: false, useSimplifiedRoles: true, group: null,
    }, 'application/json;odata=nometadata');
    assert.equal(((await web.json()) as any).ErrorMessage, null);
    assert.ok((await erin.web.lists.getByTitle('Wire library').items()).length >= 1, 'the web is shared with her: its lists too');
    const root = await spemu.sp.web.roleAssignments.expand('Member')();
    assert.ok(root.some((a: any) => a.Member.LoginName === login(ERIN)));
  });
});
