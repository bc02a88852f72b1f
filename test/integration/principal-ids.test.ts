// One principal id space per site collection, as in SharePoint: no site user shares an id with
// a SharePoint group (the default groups hold 3, 4, 5; the site's own groups and its users take
// ids from one counter). Checked on the demo as seeded, on EnsureUser and group creation, and
// where it matters: a unique permission given to one visitor is not given to every visitor.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import { demoBasic, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

const DAVE = 'dave@contoso.onmicrosoft.com';
const ERIN = 'erin@contoso.onmicrosoft.com';
const basic = demoBasic;
const CONTRIBUTE = 1073741827;

describe('site users and SharePoint groups share one id space', () => {
  const spemu = usePnpSite();

  async function ids(): Promise<{ users: Map<string, number>; groups: Map<number, string> }> {
    const get = async (path: string) => {
      const r = await fetch(`${spemu.site}/_api/web/${path}`, { headers: { Accept: 'application/json;odata=nometadata' } });
      assert.equal(r.status, 200);
      return ((await r.json()) as { value: Array<Record<string, unknown>> }).value;
    };
    const users = new Map((await get('siteusers?$select=Id,LoginName')).map((u) => [String(u.LoginName), Number(u.Id)]));
    const groups = new Map((await get('sitegroups?$select=Id,Title')).map((g) => [Number(g.Id), String(g.Title)]));
    return { users, groups };
  }

  const as = (upn: string): Promise<SPFI> => pnpAsDemoUser(spemu.site, upn);

  it('the seeded demo: the default groups keep 3, 4, 5 and no site user has a group\'s id', async () => {
    const { users, groups } = await ids();
    assert.deepEqual([...groups.keys()].sort(), [3, 4, 5]);
    assert.ok(users.size >= 4, 'the demo seeds several users');
    for (const [login, id] of users) assert.ok(!groups.has(id), `${login} has id ${id}, the id of ${groups.get(id)}`);
    assert.equal(new Set(users.values()).size, users.size, 'every user has an id of its own');
  });

  it('EnsureUser of a new user and a group made after it: neither takes an id the other kind has', async () => {
    const erin = await spemu.sp.web.ensureUser(`i:0#.f|membership|${ERIN}`);
    const group = await spemu.sp.web.siteGroups.add({ Title: 'Principal ids' });
    const later = await spemu.sp.web.siteGroups.add({ Title: 'Principal ids 2' });
    const { users, groups } = await ids();
    assert.ok(!groups.has(erin.Id), `Erin took ${erin.Id}, a group's id`);
    for (const g of [group.Id, later.Id]) assert.ok(![...users.values()].includes(g), `group ${g} took a user's id`);
    assert.ok(groups.has(group.Id) && groups.has(later.Id));
    assert.notEqual(group.Id, later.Id);
  });

  it('a unique permission given to Dave (a visitor) is not given to another visitor', async () => {
    await spemu.sp.web.associatedVisitorGroup.users.add(`i:0#.f|membership|${ERIN}`);
    const { list } = await spemu.sp.web.lists.ensure('Dave only', '', 100);
    const item = await list.items.add({ Title: 'for dave' });
    await list.items.getById(item.Id).breakRoleInheritance(true, false);
    const daveRow = await spemu.sp.web.ensureUser(`i:0#.f|membership|${DAVE}`);
    await list.items.getById(item.Id).roleAssignments.add(daveRow.Id, CONTRIBUTE);
    const assignments = await list.items.getById(item.Id).roleAssignments.expand('Member')();
    const member = assignments.find((a: any) => a.PrincipalId === daveRow.Id) as any;
    assert.equal(member?.Member?.LoginName, `i:0#.f|membership|${DAVE}`, 'the assignment names Dave, not a group');

    const dave = await as(DAVE);
    await dave.web.lists.getByTitle('Dave only').items.getById(item.Id).update({ Title: 'edited by dave' });
    const erin = await as(ERIN);
    assert.equal((await erin.web.lists.getByTitle('Dave only').items.getById(item.Id).select('Title')()).Title, 'edited by dave', 'Erin still reads as a visitor');
    assert.equal((await failure(erin.web.lists.getByTitle('Dave only').items.getById(item.Id).update({ Title: 'edited by erin' }))).status, 403,
      'Erin, another visitor, did not gain Dave\'s Contribute');
  });
});
