// SharePoint groups through an unmodified @pnp/sp 4.x client (issue #14): a group of the
// site's own made as PnPjs's upstream suite makes it, read by id and name, renamed, given an
// owner, members added and removed, deleted by id and by login name; the default groups'
// membership is the site's permissions (a user added to Members may write, removed may not);
// refusals. Requests act as the demo's owner unless a user's Basic credentials are given.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/site-users/index.js';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

const ERIN = 'erin@contoso.onmicrosoft.com';
const basic = (upn: string, password: string) => `Basic ${Buffer.from(`${upn}:${password}`).toString('base64')}`;

describe('PnPjs site groups against spemu', () => {
  const spemu = usePnpSite();

  it('a group of the site\'s own: add, getById, getByName, update, users, setUserAsOwner, remove by id and by login name', async () => {
    const group = await spemu.sp.web.siteGroups.add({ Title: 'Reviewers' });
    assert.equal(group.Title, 'Reviewers');
    assert.equal(group.OwnerTitle, 'Alice Adams', 'its maker owns it');
    assert.equal((await spemu.sp.web.siteGroups.getById(group.Id)()).Title, 'Reviewers');
    assert.equal((await spemu.sp.web.siteGroups.getByName('reviewers')()).Id, group.Id);
    await spemu.sp.web.siteGroups.getByName('Reviewers').update({ Title: 'Reviewers 2', Description: 'they review' });
    const renamed = await spemu.sp.web.siteGroups.getById(group.Id)();
    assert.deepEqual([renamed.Title, renamed.Description], ['Reviewers 2', 'they review']);

    const erin = await spemu.sp.web.ensureUser(`i:0#.f|membership|${ERIN}`);
    await spemu.sp.web.siteGroups.getById(group.Id).users.add(`i:0#.f|membership|${ERIN}`);
    assert.deepEqual((await spemu.sp.web.siteGroups.getById(group.Id).users()).map((u) => u.Id), [erin.Id]);
    assert.ok((await spemu.sp.web.getUserById(erin.Id).groups()).some((g) => g.Id === group.Id), 'the user\'s groups include it');
    await spemu.sp.web.siteGroups.getById(group.Id).setUserAsOwner(erin.Id);
    assert.equal((await spemu.sp.web.siteGroups.getById(group.Id)()).OwnerTitle, 'Erin Evans');
    await spemu.sp.web.siteGroups.getById(group.Id).users.removeById(erin.Id);
    assert.deepEqual(await spemu.sp.web.siteGroups.getById(group.Id).users(), []);

    await spemu.sp.web.siteGroups.removeById(group.Id);
    assert.equal((await failure(spemu.sp.web.siteGroups.getById(group.Id)())).status, 404);
    const other = await spemu.sp.web.siteGroups.add({ Title: 'Temporary' });
    await spemu.sp.web.siteGroups.removeByLoginName(other.LoginName);
    assert.ok(!(await spemu.sp.web.siteGroups()).some((g) => g.Title === 'Temporary'));
  });

  it('the default groups\' members are the site\'s role holders: adding to Members lets a user write, removing stops them', async () => {
    const erinSp = pnpFor(spemu.site, { Authorization: basic(ERIN, 'erin-demo-pass') });
    assert.equal((await failure(erinSp.web.lists.getByTitle('Tasks').items())).status, 403, 'Erin has no role on the site');
    const members = spemu.sp.web.associatedMemberGroup;
    await members.users.add(`i:0#.f|membership|${ERIN}`);
    assert.ok((await members.users()).some((u) => u.LoginName === `i:0#.f|membership|${ERIN}`));
    const r = await fetch(`${spemu.site}/_api/web/lists/getbytitle('Tasks')/items`, { method: 'POST', headers: { Authorization: basic(ERIN, 'erin-demo-pass'), Accept: 'application/json', 'Content-Type': 'application/json', 'X-RequestDigest': await digest(spemu.site, ERIN) }, body: JSON.stringify({ Title: 'by a new member' }) });
    assert.equal(r.status, 201, 'a member writes');
    const erinRow = (await members.users()).find((u) => u.LoginName === `i:0#.f|membership|${ERIN}`)!;
    await members.users.removeById(erinRow.Id);
    assert.equal((await failure(erinSp.web.lists.getByTitle('Tasks').items())).status, 403, 'and no longer once removed');
  });

  it('refusals: a taken name, a bad name, the default groups renamed or deleted, a stranger managing membership', async () => {
    await spemu.sp.web.siteGroups.add({ Title: 'Unique' });
    assert.equal((await failure(spemu.sp.web.siteGroups.add({ Title: 'unique' }))).status, 400);
    assert.equal((await failure(spemu.sp.web.siteGroups.add({ Title: 'Dev Members' }))).status, 400, 'a default group\'s name');
    assert.equal((await failure(spemu.sp.web.siteGroups.add({ Title: 'a:b' }))).status, 400);
    assert.equal((await failure(spemu.sp.web.siteGroups.add({ Title: '' }))).status, 400);
    const defaults = await spemu.sp.web.associatedMemberGroup();
    assert.equal((await failure(spemu.sp.web.siteGroups.getById(defaults.Id).update({ Title: 'Renamed' }))).status, 501);
    assert.equal((await failure(spemu.sp.web.siteGroups.removeById(defaults.Id))).status, 501);
    const bob = pnpFor(spemu.site, { Authorization: basic('bob@contoso.onmicrosoft.com', 'bob-demo-pass'), 'X-RequestDigest': await digest(spemu.site, 'bob@contoso.onmicrosoft.com') });
    const unique = await spemu.sp.web.siteGroups.getByName('Unique')();
    assert.equal((await failure(bob.web.siteGroups.getById(unique.Id).users.add(`i:0#.f|membership|${ERIN}`))).status, 403, 'a member may not change who is in a group');
  });
});

async function digest(site: string, upn: string): Promise<string> {
  const password = `${upn.split('@')[0]}-demo-pass`;
  const r = await fetch(`${site}/_api/contextinfo`, { method: 'POST', headers: { Authorization: basic(upn, password), Accept: 'application/json;odata=nometadata' } });
  return ((await r.json()) as { FormDigestValue: string }).FormDigestValue;
}
