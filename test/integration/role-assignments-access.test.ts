// Who may read role assignments (who holds what on an object): in SharePoint, only a caller with
// Enumerate Permissions there (Full Control has it; Edit and Read do not). Every way to read them —
// `RoleAssignments` on a web, list or item, one by principal, `$expand=RoleAssignments` on the web, a list,
// the lists, an item, the items and a CAML getitems — answers anyone else 403 with SharePoint's
// access-denied error; so does getUserEffectivePermissions for another user. The caller's own
// EffectiveBasePermissions stays readable. Dave is a visitor of /sites/dev, Bob a member, Alice
// the owner (demo/tenant.json).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import { PermissionKind } from '@pnp/sp/security/index.js';
import { demoBasic, demoDigest, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const BOB = 'bob@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';
const FULL_CONTROL = 1073741829;
const ACCESS_DENIED = {
  code: '-2147024891, System.UnauthorizedAccessException',
  message: 'Access denied. You do not have permission to perform this action or access this resource.',
};

describe('reading role assignments needs Enumerate Permissions', () => {
  const spemu = usePnpSite();

  async function get(upn: string, path: string): Promise<{ status: number; body: any }> {
    const r = await fetch(`${spemu.site}/_api/${path}`, { headers: { Authorization: demoBasic(upn), Accept: 'application/json;odata=nometadata' } });
    return { status: r.status, body: await r.json() };
  }

  async function post(upn: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
    const digest = await demoDigest(spemu.site, upn);
    const r = await fetch(`${spemu.site}/_api/${path}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { Authorization: demoBasic(upn), Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json', ...(digest ? { 'X-RequestDigest': digest } : {}) },
    });
    return { status: r.status, body: await r.json() };
  }

  const denied = (answer: { status: number; body: any }, what: string) => {
    assert.equal(answer.status, 403, `${what}: ${JSON.stringify(answer.body)}`);
    assert.deepEqual({ code: answer.body['odata.error']?.code, message: answer.body['odata.error']?.message?.value }, ACCESS_DENIED, what);
  };

  it('a visitor and a member are refused every way of reading them; the owner reads them all', async () => {
    const item = (await get(ALICE, "web/lists/getbytitle('Tasks')/items?$top=1&$select=Id")).body.value[0].Id as number;
    const owners = (await get(ALICE, 'web/associatedownergroup')).body.Id as number;
    const paths = [
      'web/roleassignments',
      `web/roleassignments/getbyprincipalid(${owners})`,
      `web/roleassignments(${owners})/member`,
      `web/roleassignments(${owners})/roledefinitionbindings`,
      "web/lists/getbytitle('Tasks')/roleassignments",
      `web/lists/getbytitle('Tasks')/items(${item})/roleassignments`,
      'web?$expand=RoleAssignments&$select=Title',
      'web?$expand=RoleAssignments/Member,RoleAssignments/RoleDefinitionBindings',
      "web/lists/getbytitle('Tasks')?$expand=RoleAssignments",
      "web/lists?$expand=RoleAssignments&$select=Title",
      `web/lists/getbytitle('Tasks')/items(${item})?$expand=RoleAssignments`,
      "web/lists/getbytitle('Tasks')/items?$expand=RoleAssignments&$select=Id",
      `web/getusereffectivepermissions(@u)?@u='${encodeURIComponent(`i:0#.f|membership|${ALICE}`)}'`,
      `web/lists/getbytitle('Tasks')/getusereffectivepermissions(@u)?@u='${encodeURIComponent(`i:0#.f|membership|${ALICE}`)}'`,
    ];
    for (const upn of [DAVE, BOB]) {
      for (const path of paths) denied(await get(upn, path), `${upn} GET ${path}`);
      denied(await post(upn, "web/lists/getbytitle('Tasks')/getitems?$expand=RoleAssignments",
        { query: { ViewXml: '<View><RowLimit>5</RowLimit></View>' } }), `${upn} CAML getitems with RoleAssignments`);
    }
    for (const path of paths) assert.equal((await get(ALICE, path)).status, 200, `the owner: ${path}`);
    const web = (await get(ALICE, 'web?$expand=RoleAssignments/Member,RoleAssignments/RoleDefinitionBindings')).body;
    assert.ok(web.RoleAssignments.some((a: any) => a.PrincipalId === owners && a.Member.Id === owners && a.RoleDefinitionBindings[0].Name === 'Full Control'),
      'the web expands its assignments, their members and levels');
    const caml = await post(ALICE, "web/lists/getbytitle('Tasks')/getitems?$expand=RoleAssignments", { query: { ViewXml: '<View><RowLimit>5</RowLimit></View>' } });
    assert.equal(caml.status, 200);
    assert.ok(caml.body.value[0].RoleAssignments.length > 0, 'the owner sees the assignments');
  });

  it('the caller\'s own permissions stay readable: EffectiveBasePermissions, and getUserEffectivePermissions of themselves', async () => {
    const own = await get(DAVE, 'web/effectivebasepermissions');
    assert.equal(own.status, 200);
    assert.equal(typeof own.body.Low, 'string');
    assert.equal((await get(DAVE, "web/lists/getbytitle('Tasks')?$select=EffectiveBasePermissions")).status, 200);
    const self = await get(DAVE, `web/getusereffectivepermissions(@u)?@u='${encodeURIComponent(`i:0#.f|membership|${DAVE}`)}'`);
    assert.equal(self.status, 200);
    assert.deepEqual(self.body, own.body);
  });

  it('through PnPjs: a visitor\'s roleAssignments() and userHasPermissions(another) are refused, currentUserHasPermissions answers', async () => {
    const dave = await pnpAsDemoUser(spemu.site, DAVE);
    const refused = await failure(dave.web.roleAssignments());
    assert.deepEqual(refused, { status: 403, ...ACCESS_DENIED });
    assert.equal((await failure(dave.web.lists.getByTitle('Tasks').roleAssignments())).status, 403);
    assert.equal((await failure(dave.web.userHasPermissions(`i:0#.f|membership|${ALICE}`, PermissionKind.ViewListItems))).status, 403);
    assert.equal(await dave.web.currentUserHasPermissions(PermissionKind.ViewListItems), true);
    assert.equal(await dave.web.currentUserHasPermissions(PermissionKind.EnumeratePermissions), false);
    assert.ok((await spemu.sp.web.roleAssignments()).length > 0, 'the owner reads them');
  });

  it('where permissions are unique: Full Control given on one list lets a member read that list\'s assignments, not the web\'s', async () => {
    const { list } = await spemu.sp.web.lists.ensure('Shared with Bob', '', 100);
    await list.breakRoleInheritance(true, false);
    const bobRow = await spemu.sp.web.ensureUser(`i:0#.f|membership|${BOB}`);
    await list.roleAssignments.add(bobRow.Id, FULL_CONTROL);
    const bob = await pnpAsDemoUser(spemu.site, BOB);
    const assignments = await bob.web.lists.getByTitle('Shared with Bob').roleAssignments();
    assert.ok(assignments.some((a: any) => a.PrincipalId === bobRow.Id), 'Bob reads the list\'s assignments, his own among them');
    denied(await get(BOB, 'web/roleassignments'), 'but not the web\'s');
    denied(await get(DAVE, "web/lists/getbytitle('Shared with Bob')/roleassignments"), 'nor does a visitor (copied Read)');
  });
});
