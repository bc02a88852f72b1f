// A member's effective permissions on an object are kept per caller while the store's
// generation stands (identity/effective-permissions.ts, issue #13). Every change they rest on
// must reach the very next request sent with the same header — the one whose kept principal
// and kept masks would otherwise answer — on the instance that wrote it and on a second one
// sharing the database (PostgreSQL on that leg; on the SQLite leg a shared file, as --workers
// run): an assignment added and removed, a SharePoint group the member joins and leaves, a
// permission level edited — and, with nothing written in between, each object keeps a mask of
// its own (fails with one key for all). The identity and principal a repeat header is served
// from are renewed with the generation as well (proven-identities.ts, site-principals.ts): this
// holds the behaviour whichever layer would keep a stale answer. Each step reads through both
// instances, twice each, so both hold masks before the next write.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import { startSharedInstances, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { demoBasic, pnpFor } from '../helpers/pnp.ts';

const BOB = 'bob@contoso.onmicrosoft.com';
const BOB_LOGIN = `i:0#.f|membership|${BOB}`;
const READ = 1073741826;
const backend = testBackend();

describe(`a member's kept permissions follow every change at the next request, on both instances (${backend})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const servers: TestServer[] = [];
  let sp: SPFI;
  const sites = () => servers.map((s) => s.site('/sites/dev'));

  before(async () => {
    const shared = await startSharedInstances('spemu-permission-memo-');
    cleanups.push(() => shared.close());
    servers.push(...shared.servers);
    // Writes go through the first instance, as its owner.
    sp = pnpFor(sites()[0]!);
  });
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  /** Bob's GET of one item, through each instance, twice (the second served from what the first kept): the status each time. */
  async function bobReads(title: string, id: number, status: number, when: string): Promise<void> {
    for (const [i, site] of sites().entries()) {
      for (let n = 0; n < 2; n++) {
        const res = await fetch(`${site}/_api/web/lists/getbytitle('${title}')/items(${id})?$select=Title`, {
          headers: { Accept: 'application/json;odata=nometadata', Authorization: demoBasic(BOB) },
        });
        assert.equal(res.status, status, `${when}: read ${n + 1} through instance ${i + 1}`);
      }
    }
  }

  /** The titles Bob's query of a list answers, through each instance, twice each: the same every time. */
  async function bobLists(title: string, expected: string[], when: string): Promise<void> {
    for (const [i, site] of sites().entries()) {
      for (let n = 0; n < 2; n++) {
        const res = await fetch(`${site}/_api/web/lists/getbytitle('${title}')/items?$select=Title`, {
          headers: { Accept: 'application/json;odata=nometadata', Authorization: demoBasic(BOB) },
        });
        assert.equal(res.status, 200, `${when}: query ${n + 1} through instance ${i + 1}`);
        assert.deepEqual(((await res.json()) as { value: Array<{ Title: string }> }).value.map((v) => v.Title).sort(), expected, `${when}: query ${n + 1} through instance ${i + 1}`);
      }
    }
  }

  it('a query leaves out an item Bob may not view, and takes it in once he may (the kept rule per list follows)', async () => {
    const { list } = await sp.web.lists.ensure('Kept rules', '', 100);
    await list.items.add({ Title: 'open' });
    const { Id: hidden } = (await list.items.add({ Title: 'hidden' })) as { Id: number };
    await bobLists('Kept rules', ['hidden', 'open'], 'inheriting');
    await list.items.getById(hidden).breakRoleInheritance(false, false);
    await bobLists('Kept rules', ['open'], 'the item stops inheriting');
    const bob = await sp.web.ensureUser(BOB_LOGIN);
    await list.items.getById(hidden).roleAssignments.add(bob.Id, READ);
    await bobLists('Kept rules', ['hidden', 'open'], 'Read on the item given to Bob');
    await list.items.getById(hidden).roleAssignments.remove(bob.Id, READ);
    await bobLists('Kept rules', ['open'], 'Read on the item taken from Bob');
  });

  it('an assignment added and removed, a group joined and left, a permission level edited', async () => {
    const { list } = await sp.web.lists.ensure('Kept masks', '', 100);
    const { Id: id } = (await list.items.add({ Title: 'guarded' })) as { Id: number };
    await bobReads('Kept masks', id, 200, 'inheriting');

    const { list: open } = await sp.web.lists.ensure('Kept masks open', '', 100);
    const { Id: openId } = (await open.items.add({ Title: 'open' })) as { Id: number };
    await list.breakRoleInheritance(false, false);
    // With nothing written in between, each object keeps a mask of its own.
    await bobReads('Kept masks open', openId, 200, 'a list that inherits');
    await bobReads('Kept masks', id, 403, 'the list stops inheriting');
    await bobReads('Kept masks open', openId, 200, 'a list that inherits, again');

    const bob = await sp.web.ensureUser(BOB_LOGIN);
    await list.roleAssignments.add(bob.Id, READ);
    await bobReads('Kept masks', id, 200, 'Read given to Bob');
    await list.roleAssignments.remove(bob.Id, READ);
    await bobReads('Kept masks', id, 403, 'Read taken from Bob');

    const group = await sp.web.siteGroups.add({ Title: 'Kept masks readers' });
    await list.roleAssignments.add(group.Id, READ);
    await bobReads('Kept masks', id, 403, 'Read given to a group Bob is not in');
    await sp.web.siteGroups.getById(group.Id).users.add(BOB_LOGIN);
    await bobReads('Kept masks', id, 200, 'Bob joins the group');
    await sp.web.siteGroups.getById(group.Id).users.removeById(bob.Id);
    await bobReads('Kept masks', id, 403, 'Bob leaves the group');

    // A level of the site's own, given to Bob, then stripped of viewing items.
    const { data: level } = await sp.web.roleDefinitions.add('Kept masks level', 'viewing, then not', 100, { High: 0, Low: 0x1 | 0x1000 | 0x20000 | 0x10000 | 0x20000000 });
    await list.roleAssignments.add(bob.Id, level.Id);
    await bobReads('Kept masks', id, 200, 'a level of the site\'s own with ViewListItems');
    await sp.web.roleDefinitions.getById(level.Id).update({ BasePermissions: { High: 0, Low: 0x1000 | 0x20000 | 0x10000 } });
    await bobReads('Kept masks', id, 403, 'the level no longer views items');
  });
});
