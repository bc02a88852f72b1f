// Unique permissions through an unmodified @pnp/sp 4.x client (issue #14): a list and an item
// stop inheriting (with or without copying), role assignments are added and removed, and every
// read and write answers by the permissions of the object it touches — a member shut out of a
// list, a user without a site role let into one list only, an item hidden from a member who
// still sees the list (left out of its listing, not only refused one by one); reset brings
// inheritance back. Requests act as the owner (Alice) unless a user's credentials are given.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import { PermissionKind } from '@pnp/sp/security/index.js';
import { Web } from '@pnp/sp/webs/index.js';
import { demoBasic, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

const BOB = 'bob@contoso.onmicrosoft.com';
const ERIN = 'erin@contoso.onmicrosoft.com';
const basic = demoBasic;
const READ = 1073741826;
const CONTRIBUTE = 1073741827;

describe('PnPjs unique permissions against spemu', () => {
  const spemu = usePnpSite();

  /** A user's client, with a request digest for writes. */
  const as = (upn: string): Promise<SPFI> => pnpAsDemoUser(spemu.site, upn);

  it('a list that stops inheriting: the members shut out, a user with no site role let in; reset brings the site\'s permissions back', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Private list', '', 100);
    await list.items.add({ Title: 'secret' });
    const bob = await as(BOB);
    assert.equal((await bob.web.lists.getByTitle('Private list').items()).length, 1, 'inherited: a member reads');

    await list.breakRoleInheritance(false, false);
    assert.equal((await list.select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, true);
    const assignments = await list.roleAssignments.expand('Member', 'RoleDefinitionBindings')();
    const alice = await spemu.sp.web.currentUser();
    assert.deepEqual(assignments.map((a: any) => [a.PrincipalId, a.RoleDefinitionBindings.map((d: any) => d.Name)]), [[alice.Id, ['Full Control']]], 'without copying: the caller keeps Full Control');
    assert.equal((await failure(bob.web.lists.getByTitle('Private list').items())).status, 403, 'the member is shut out');
    assert.ok((await bob.web.lists.getByTitle('Tasks').items()).length >= 0, 'but still reads the lists that inherit');

    const erinRow = await spemu.sp.web.ensureUser(`i:0#.f|membership|${ERIN}`);
    await list.roleAssignments.add(erinRow.Id, CONTRIBUTE);
    const erin = await as(ERIN);
    await erin.web.lists.getByTitle('Private list').items.add({ Title: 'by erin' });
    assert.deepEqual((await erin.web.lists.getByTitle('Private list').items.select('Title')()).map((i) => i.Title).sort(), ['by erin', 'secret']);
    assert.equal((await failure(erin.web.lists.getByTitle('Tasks').items())).status, 403, 'Erin has nothing else');
    assert.equal(await list.userHasPermissions(`i:0#.f|membership|${ERIN}`, PermissionKind.AddListItems), true);
    assert.equal(await list.userHasPermissions(`i:0#.f|membership|${BOB}`, PermissionKind.ViewListItems), false);

    await list.roleAssignments.remove(erinRow.Id, CONTRIBUTE);
    assert.equal((await failure(erin.web.lists.getByTitle('Private list').items())).status, 403);
    await list.resetRoleInheritance();
    assert.equal((await list.select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, false);
    assert.equal((await bob.web.lists.getByTitle('Private list').items()).length, 2, 'inheriting again');
  });

  it('an item hidden from a member who still sees the list: left out of the listing, refused alone; copying keeps the others\' access', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Mixed list', '', 100);
    const open = await list.items.add({ Title: 'open' });
    const closed = await list.items.add({ Title: 'closed' });
    await list.items.getById(closed.Id).breakRoleInheritance(true, false);
    const membersGroup = await spemu.sp.web.associatedMemberGroup();
    await list.items.getById(closed.Id).roleAssignments.remove(membersGroup.Id, 1073741830);
    const bob = await as(BOB);
    const seen = await bob.web.lists.getByTitle('Mixed list').items.select('Title')();
    assert.deepEqual(seen.map((i) => i.Title), ['open'], 'the listing leaves the item out');
    assert.equal((await failure(bob.web.lists.getByTitle('Mixed list').items.getById(closed.Id)())).status, 403);
    assert.equal((await bob.web.lists.getByTitle('Mixed list').items.getById(open.Id)()).Title, 'open');
    const caml = await bob.web.lists.getByTitle('Mixed list').getItemsByCAMLQuery({ ViewXml: '<View><Query /></View>' });
    assert.deepEqual(caml.map((i: any) => i.Title), ['open'], 'CAML queries leave it out too');
    const dave = await as('dave@contoso.onmicrosoft.com');
    assert.deepEqual((await dave.web.lists.getByTitle('Mixed list').items.select('Title')()).map((i) => i.Title).sort(), ['closed', 'open'], 'copied: the visitors keep Read');
    const first = await list.items.getById(closed.Id).firstUniqueAncestorSecurableObject();
    assert.ok(first);
  });

  it('refusals: assignments on an object that inherits, unknown principals and levels; only owners change permissions', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Inheriting list', '', 100);
    assert.equal((await failure(list.roleAssignments.add(3, READ))).status, 400);
    await list.breakRoleInheritance(true, false);
    assert.equal((await failure(list.roleAssignments.add(987654, READ))).status, 404);
    assert.equal((await failure(list.roleAssignments.add(3, 12345))).status, 404);
    const bob = await as(BOB);
    assert.equal((await failure(bob.web.lists.getByTitle('Inheriting list').breakRoleInheritance(false))).status, 403);
    await list.resetRoleInheritance();
  });

  it('a new subweb stops inheriting with clearSubscopes: answered at once (it once waited forever on SQLite), its own assignments kept', { timeout: 20_000 }, async () => {
    await spemu.sp.web.webs.add('Own permissions', 'own-permissions');
    const sub = Web([spemu.sp.web, `${spemu.site}/own-permissions`]);
    await sub.breakRoleInheritance(true, true);
    assert.equal((await sub.select('HasUniqueRoleAssignments')<{ HasUniqueRoleAssignments: boolean }>()).HasUniqueRoleAssignments, true);
    assert.ok((await sub.roleAssignments()).length > 0, 'the parent\'s assignments copied');
    await sub.resetRoleInheritance();
    assert.equal((await sub.select('HasUniqueRoleAssignments')<{ HasUniqueRoleAssignments: boolean }>()).HasUniqueRoleAssignments, false);
  });
});
