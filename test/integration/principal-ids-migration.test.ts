// Migration 0028 on a workspace numbered the old way: site users at the ids of the site's
// groups (the demo's Engineering 3, Dave 4, Carol 5, as spemu numbered them before one
// principal id space). The workspace is made by today's server, its rows then renumbered as the
// old code had them (the user rows, an item's Author and Editor, person, multi-person and
// lookup-to-users values, a group membership), the migration marked unapplied; a restart runs
// it. Afterwards no user has a group's id and every reference still names the same person.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/fields/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/security/index.js';
import { startTestServer, testDatabase, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';

const login = (name: string) => `i:0#.f|membership|${name}@contoso.onmicrosoft.com`;
const ENGINEERING = 'c:0t.c|tenant|5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f';
const CONTRIBUTE = 1073741827;
const basic = (name: string) => `Basic ${Buffer.from(`${name}@contoso.onmicrosoft.com:${name}-demo-pass`).toString('base64')}`;

async function withDb<T>(location: string, fn: (db: Kysely<any>) => Promise<T>): Promise<T> {
  const connection = testBackend() === 'sqlite' ? openSqlite({ file: location }) : await openPostgres({ url: location, statementTimeoutMs: 0 });
  try { return await fn(connection.db); } finally { await connection.db.destroy(); }
}

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const r = await fetch(url, { ...init, headers: { Accept: 'application/json;odata=nometadata', ...(init.headers as Record<string, string> | undefined) } });
  assert.ok(r.ok, `${url}: ${r.status} ${await r.clone().text()}`);
  return r.json();
}

describe('migration 0028: site users moved off the groups\' ids, references kept', () => {
  let location: string;
  let drop = async () => {};
  let server: TestServer | undefined;
  after(async () => { await server?.close(); await drop(); });

  it('renumbers the clashing users and every reference to them', async () => {
    if (testBackend() === 'sqlite') {
      location = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0028-')), 'spemu.db');
    } else {
      const database = await testDatabase();
      location = database.db;
      drop = database.drop;
    }
    // 1. Today's numbering, with content that names Dave and Carol.
    server = await startTestServer({ db: location });
    let site = server.site('/sites/dev');
    const sp = pnpFor(site);
    const ids = async () => new Map<string, number>((await json(`${site}/_api/web/siteusers?$select=Id,LoginName`)).value.map((u: any) => [u.LoginName, u.Id]));
    const now = await ids();
    const eng = now.get(ENGINEERING)!, dave = now.get(login('dave'))!, carol = now.get(login('carol'))!;
    assert.ok(![eng, dave, carol].some((id) => id >= 3 && id <= 5), 'today none of them has a group id');
    const uil = await json(`${site}/_api/web/siteuserinfolist?$select=Id`);
    const { list } = await sp.web.lists.ensure('Legacy', '', 100);
    await list.fields.addUser('Person');
    await list.fields.createFieldAsXml('<Field Type="UserMulti" Mult="TRUE" DisplayName="People" Name="People" UserSelectionMode="PeopleOnly" />');
    await list.fields.addLookup('Account', { LookupListId: uil.Id, LookupFieldName: 'Title' });
    const reviewers = await sp.web.siteGroups.add({ Title: 'Legacy reviewers' });
    await sp.web.siteGroups.getById(reviewers.Id).users.add(login('carol'));
    const context = await json(`${site}/_api/contextinfo`, { method: 'POST', headers: { Authorization: basic('carol') } });
    const asCarol = pnpFor(site, { Authorization: basic('carol'), 'X-RequestDigest': context.FormDigestValue });
    await list.update({ EnableVersioning: true });
    const added = await asCarol.web.lists.getByTitle('Legacy').items.add({ Title: 'old', PersonId: dave, PeopleId: [dave, carol], AccountId: carol });
    // A past version (as Carol left it), and a unique permission given to Dave by id.
    await asCarol.web.lists.getByTitle('Legacy').items.getById(added.Id).update({ Title: 'old, edited' });
    await list.items.getById(added.Id).breakRoleInheritance(true, false);
    await list.items.getById(added.Id).roleAssignments.add(dave, CONTRIBUTE);
    await server.close();
    server = undefined;

    // 2. The same rows as the old code numbered them: Engineering 3, Dave 4, Carol 5.
    const old = new Map([[eng, 3], [dave, 4], [carol, 5]]);
    await withDb(location, async (db) => {
      const siteRow = await db.selectFrom('sites').select(['id', 'root_web_id']).where('url', '=', '/sites/dev').executeTakeFirstOrThrow();
      const users = await db.selectFrom('lists').select(['table_name', 'row_id']).where('web_id', '=', siteRow.root_web_id).where('base_template', '=', 112).executeTakeFirstOrThrow();
      const legacy = await db.selectFrom('lists').select(['table_name', 'row_id']).where('title', '=', 'Legacy').executeTakeFirstOrThrow();
      const columns = new Map((await db.selectFrom('fields').select(['internal_name', 'column_name']).where('list_row_id', '=', legacy.row_id).execute())
        .map((f) => [String(f.internal_name), String(f.column_name)]));
      for (const [from, to] of old) {
        await db.updateTable(users.table_name).set({ id: to }).where('id', '=', from).execute();
        for (const column of ['author_id', 'editor_id', columns.get('Person')!, columns.get('Account')!]) {
          await db.updateTable(legacy.table_name).set({ [column]: to }).where(column, '=', from).execute();
        }
        await db.updateTable('site_group_members').set({ user_id: to }).where('site_id', '=', siteRow.id).where('user_id', '=', from).execute();
      }
      await db.updateTable(legacy.table_name).set({ [columns.get('People')!]: JSON.stringify([4, 5]) }).where('id', '=', added.Id).execute();
      // The past version as the old code kept it, and the assignment it stored for Dave: principal 4.
      const version = await db.selectFrom('item_versions').select(['ui_version', 'data']).where('list_row_id', '=', legacy.row_id).where('item_id', '=', added.Id).executeTakeFirstOrThrow();
      const data = JSON.parse(String(version.data));
      Object.assign(data, { authorId: 5, editorId: 5 });
      Object.assign(data.values, { Person: 4, People: JSON.stringify([4, 5]), Account: 5 });
      await db.updateTable('item_versions').set({ data: JSON.stringify(data) }).where('list_row_id', '=', legacy.row_id).where('item_id', '=', added.Id).where('ui_version', '=', version.ui_version).execute();
      await db.updateTable('role_assignments').set({ principal_id: 4 }).where('scope', '=', `item:${legacy.row_id}:${added.Id}`).where('principal_id', '=', dave).execute();
      await db.deleteFrom('kysely_migration').where('name', '=', '0028-principal-ids').execute();
      const row = await db.selectFrom(legacy.table_name).select(['author_id']).where('id', '=', added.Id).executeTakeFirstOrThrow();
      assert.equal(Number(row.author_id), 5, 'the old numbering is in place: Carol wrote the item as 5');
    });

    // 3. A restart runs 0028.
    server = await startTestServer({ db: location });
    site = server.site('/sites/dev');
    const after = await ids();
    const groups = new Set((await json(`${site}/_api/web/sitegroups?$select=Id`)).value.map((g: any) => g.Id));
    for (const [name, id] of after) assert.ok(!groups.has(id), `${name} still has ${id}, a group's id`);
    assert.equal(new Set(after.values()).size, after.size, 'every user has an id of its own');
    const item = await json(`${site}/_api/web/lists/getbytitle('Legacy')/items(${added.Id})?$select=Author/Name,Editor/Name,Person/Name,People/Name,Account/Name&$expand=Author,Editor,Person,People,Account`);
    assert.equal(item.Author.Name, login('carol'));
    assert.equal(item.Editor.Name, login('carol'));
    assert.equal(item.Person.Name, login('dave'));
    assert.deepEqual(item.People.map((p: any) => p.Name), [login('dave'), login('carol')]);
    assert.equal(item.Account.Name, login('carol'));
    const members = await json(`${site}/_api/web/sitegroups(${reviewers.Id})/users?$select=LoginName`);
    assert.deepEqual(members.value.map((u: any) => u.LoginName), [login('carol')], 'the group\'s member is still Carol');
    const newCarol = after.get(login('carol'))!;
    const newDave = after.get(login('dave'))!;
    await withDb(location, async (db) => {
      const legacy = await db.selectFrom('lists').select(['row_id']).where('title', '=', 'Legacy').executeTakeFirstOrThrow();
      const version = await db.selectFrom('item_versions').select(['data']).where('list_row_id', '=', legacy.row_id).where('item_id', '=', added.Id).executeTakeFirstOrThrow();
      const data = JSON.parse(String(version.data));
      assert.deepEqual([data.authorId, data.editorId, data.values.Person, JSON.parse(data.values.People), data.values.Account],
        [newCarol, newCarol, newDave, [newDave, newCarol], newCarol], 'the past version names the same people');
    });
    // The ambiguous assignment (principal 4: Dave to the old code, Visitors to the REST API) stays the group's.
    const assignments = await json(`${site}/_api/web/lists/getbytitle('Legacy')/items(${added.Id})/roleassignments?$expand=Member,RoleDefinitionBindings`);
    const visitors = assignments.value.find((a: any) => a.PrincipalId === 4);
    assert.equal(visitors.Member.Title, 'Dev Visitors');
    assert.ok(visitors.RoleDefinitionBindings.some((d: any) => d.Id === CONTRIBUTE), 'Visitors keep the Contribute the old row gave principal 4');
    assert.ok(!assignments.value.some((a: any) => a.PrincipalId === newDave), 'Dave\'s new id has no assignment of its own');
    // The counter is past the moved ids: a new user takes neither a group's id nor a moved user's.
    const erin = await json(`${site}/_api/web/ensureuser`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ logonName: login('erin') }) });
    assert.ok(!groups.has(erin.Id) && ![...after.values()].includes(erin.Id), `Erin took ${erin.Id}`);
  });

  it('moves a group of the site\'s own that took a default group\'s id (a site with few users), with its members', async () => {
    let where: string;
    let dropThis = async () => {};
    if (testBackend() === 'sqlite') where = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0028-')), 'spemu.db');
    else ({ db: where, drop: dropThis } = await testDatabase());
    let running: TestServer | undefined = await startTestServer({ db: where });
    try {
      const sp = pnpFor(running.site('/sites/dev'));
      const made = await sp.web.siteGroups.add({ Title: 'Early group' });
      await sp.web.siteGroups.getById(made.Id).users.add(login('erin'));
      await running.close();
      running = undefined;
      // The old counter could hand a group 5 on a site with few users.
      await withDb(where, async (db) => {
        await db.updateTable('site_groups').set({ id: 5 }).where('id', '=', made.Id).execute();
        await db.updateTable('site_group_members').set({ group_id: 5 }).where('group_id', '=', made.Id).execute();
        await db.deleteFrom('kysely_migration').where('name', '=', '0028-principal-ids').execute();
      });
      running = await startTestServer({ db: where });
      const site = running.site('/sites/dev');
      const groups = (await json(`${site}/_api/web/sitegroups?$select=Id,Title`)).value as Array<{ Id: number; Title: string }>;
      assert.equal(new Set(groups.map((g) => g.Id)).size, groups.length, 'every group has an id of its own');
      assert.equal(groups.find((g) => g.Id === 5)?.Title, 'Dev Members');
      const early = groups.find((g) => g.Title === 'Early group')!;
      assert.ok(early.Id > 5, `the group moved to ${early.Id}`);
      const users = new Set((await json(`${site}/_api/web/siteusers?$select=Id`)).value.map((u: any) => u.Id));
      assert.ok(!users.has(early.Id), 'to an id no user has');
      const members = await json(`${site}/_api/web/sitegroups(${early.Id})/users?$select=LoginName`);
      assert.deepEqual(members.value.map((u: any) => u.LoginName), [login('erin')]);
    } finally {
      await running?.close();
      await dropThis();
    }
  });
});
