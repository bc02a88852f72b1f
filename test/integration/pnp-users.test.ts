// Site users, site groups and EnsureUser through an unmodified @pnp/sp 4.x client against a
// real spemu (demo tenant, :memory:). The client carries the owner's Basic credentials, and a
// request digest when the server issues them, so this holds with or without authentication.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-principal-types.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const AUTH = `Basic ${Buffer.from(`${ALICE}:alice-demo-pass`).toString('base64')}`;
/** The entity's own properties: PnPjs reads minimal metadata, whose `odata.*` annotations it keeps. */
const props = (o: object) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('odata.')));
const SP_USER_KEYS = ['Id', 'IsHiddenInUI', 'LoginName', 'Title', 'PrincipalType', 'Email', 'Expiration',
  'IsEmailAuthenticationGuestUser', 'IsShareByEmailGuestUser', 'IsSiteAdmin', 'UserId', 'UserPrincipalName'];

describe('PnPjs site users and groups against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;

  before(async () => {
    const site = spemu.server.site('/sites/dev');
    const headers: Record<string, string> = { Authorization: AUTH };
    const r = await fetch(`${site}/_api/contextinfo`, { method: 'POST', headers: { Accept: 'application/json;odata=nometadata', Authorization: AUTH } });
    if (r.ok) headers['X-RequestDigest'] = ((await r.json()) as { FormDigestValue: string }).FormDigestValue;
    sp = pnpFor(site, headers);
  });

  it('sp.web.siteUsers(): every site user as ISiteUserInfo', async () => {
    const users = await sp.web.siteUsers();
    assert.deepEqual(users.map((u) => u.Title).slice(0, 5), ['Alice Adams', 'Bob Baker', 'Engineering', 'Dave Diaz', 'Carol Chen']);
    for (const u of users) assert.deepEqual(Object.keys(props(u)), SP_USER_KEYS);
    const filtered = await sp.web.siteUsers.filter('PrincipalType eq 1').select('Title').orderBy('Title', false)();
    assert.deepEqual(filtered.map((u) => u.Title).slice(0, 2), ['Dave Diaz', 'Carol Chen']);
  });

  it('sp.web.ensureUser: a new user once, then the same Id by login, email and UPN', async () => {
    const created = await sp.web.ensureUser('i:0#.f|membership|erin@contoso.onmicrosoft.com');
    assert.equal(created.Title, 'Erin Evans');
    assert.equal(created.LoginName, 'i:0#.f|membership|erin@contoso.onmicrosoft.com');
    assert.equal(created.PrincipalType, 1);
    assert.equal(created.Email, 'erin@contoso.com');
    assert.equal(created.IsSiteAdmin, false);
    assert.deepEqual(Object.keys(created.UserId), ['NameId', 'NameIdIssuer']);
    assert.equal(created.UserId.NameIdIssuer, 'urn:federation:microsoftonline');
    for (const login of ['erin@contoso.com', 'erin@contoso.onmicrosoft.com', 'i:0#.w|CONTOSO\\erin']) {
      assert.equal((await sp.web.ensureUser(login)).Id, created.Id, login);
    }
    const group = await sp.web.ensureUser('c:0t.c|tenant|5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f');
    assert.equal(group.Title, 'Engineering');
    assert.equal(group.PrincipalType, 4);
    assert.equal(group.UserId, null);
  });

  it('sp.web.ensureUser of an unknown name fails as SharePoint does', async () => {
    const f = await failure(sp.web.ensureUser('ghost@contoso.com'));
    assert.deepEqual(f, { status: 500, code: '-2146232832, Microsoft.SharePoint.SPException', message: 'The specified user ghost@contoso.com could not be found.' });
  });

  it('siteUsers.getByEmail, getByLoginName, getById and sp.web.getUserById', async () => {
    const byEmail = await sp.web.siteUsers.getByEmail('bob@contoso.com')();
    assert.equal(byEmail.Id, 2);
    const byLogin = await sp.web.siteUsers.getByLoginName('i:0#.f|membership|bob@contoso.onmicrosoft.com')();
    assert.equal(byLogin.Id, 2);
    const byId = await sp.web.siteUsers.getById(2)();
    assert.equal(byId.LoginName, 'i:0#.f|membership|bob@contoso.onmicrosoft.com');
    const web = await sp.web.getUserById(2).select('Title', 'Email')();
    assert.deepEqual(props(web), { Title: 'Bob Baker', Email: 'bob@contoso.com' });
    const missing = await failure(sp.web.getUserById(4242)());
    assert.deepEqual(missing, { status: 404, code: '-2146232832, Microsoft.SharePoint.SPException', message: 'User cannot be found.' });
  });

  it('sp.web.currentUser() and its groups', async () => {
    const me = await sp.web.currentUser();
    assert.equal(me.LoginName, `i:0#.f|membership|${ALICE}`);
    assert.equal(me.IsSiteAdmin, true);
    const groups = await sp.web.currentUser.groups();
    assert.deepEqual(groups.map((g) => g.Title), ['Dev Owners']);
    // Carol's id is whatever the site gave her (users are numbered around the groups' 3, 4, 5).
    const carol = await sp.web.siteUsers.getByLoginName('i:0#.f|membership|carol@contoso.onmicrosoft.com')();
    const carolGroups = await sp.web.getUserById(carol.Id).groups.select('Title')();
    assert.deepEqual(carolGroups.map((g) => g.Title), ['Dev Members']);
  });

  it('sp.web.siteGroups(), getById, getByName and a group\'s users()', async () => {
    const groups = await sp.web.siteGroups();
    assert.deepEqual(groups.map((g) => [g.Id, g.Title, g.PrincipalType]), [[3, 'Dev Owners', 8], [4, 'Dev Visitors', 8], [5, 'Dev Members', 8]]);
    assert.equal((await sp.web.siteGroups.getById(4)()).Title, 'Dev Visitors');
    assert.equal((await sp.web.siteGroups.getByName('Dev Members')()).Id, 5);
    assert.equal((await sp.web.associatedOwnerGroup()).Id, 3);
    const members = await sp.web.siteGroups.getById(5).users();
    assert.deepEqual(members.map((u) => [u.Title, u.PrincipalType]), [['Bob Baker', 1], ['Engineering', 4]]);
    const owners = await sp.web.siteGroups.getByName('Dev Owners').users();
    assert.deepEqual(owners.map((u) => u.Title), ['Alice Adams']);
    const visitors = await sp.web.associatedVisitorGroup.users.select('Title')();
    assert.deepEqual(visitors.map((u) => u.Title), ['Dave Diaz']);
  });

  it('a site user updated as PnPjs does (the whole SP.User sent back): Title and Email kept, other properties not changed', async () => {
    const props = await sp.web.currentUser();
    await sp.web.currentUser.update({ ...props, Title: 'Changed Title', Email: 'changed@contoso.com' });
    const changed = await sp.web.currentUser();
    assert.deepEqual([changed.Title, changed.Email, changed.LoginName], ['Changed Title', 'changed@contoso.com', props.LoginName]);
    const row = await sp.web.lists.getByTitle('User Information List').items.getById(changed.Id).select('Title', 'EMail')();
    assert.deepEqual([row.Title, row.EMail], ['Changed Title', 'changed@contoso.com'], 'kept in the User Information List row');
    assert.equal((await failure(sp.web.currentUser.update({ LoginName: 'i:0#.f|membership|someone@else.com' }))).status, 400);
    assert.equal((await failure(sp.web.currentUser.update({ Title: '' }))).status, 400);
    assert.equal((await failure(sp.web.currentUser.update({ NoSuchThing: 1 } as any))).status, 400);
    await sp.web.currentUser.update({ Title: props.Title, Email: props.Email });
  });
});

