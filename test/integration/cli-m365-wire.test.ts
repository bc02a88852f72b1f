// The requests CLI for Microsoft 365 sends that spemu had to learn, on the wire exactly as the
// CLI sends them (nometadata JSON): `spo web get --withGroups` expands the web's associated
// groups; `spo listitem attachment list` expands an item's AttachmentFiles; `spo list get`
// reads a library's VersionPolicies and, `--withPermissions`, expands RoleAssignments two deep.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { ACCEPT } from '../helpers/wire.ts';

describe('CLI for Microsoft 365 requests on the wire', () => {
  const context = useTestServer();
  const get = async (path: string, accept: string = ACCEPT.nometadata) => {
    const res = await fetch(`${context.server.site()}/_api/${path}`, { headers: { Accept: accept } });
    return { status: res.status, body: await res.json() as any };
  };

  it('web?$expand=AssociatedMemberGroup,AssociatedOwnerGroup,AssociatedVisitorGroup: the groups inside the web (spo web get --withGroups)', async () => {
    const { status, body } = await get('web?$expand=AssociatedMemberGroup,AssociatedOwnerGroup,AssociatedVisitorGroup');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.Title, 'Dev');
    const alone = await get('web/AssociatedMemberGroup');
    assert.deepEqual(body.AssociatedMemberGroup, alone.body);
    assert.equal(body.AssociatedOwnerGroup.Title, 'Dev Owners');
    assert.equal(body.AssociatedVisitorGroup.Title, 'Dev Visitors');
    assert.equal(body.AssociatedMemberGroup.PrincipalType, 8);
    // $select reaches into them, and the verbose dialect nests them with their own metadata.
    const selected = await get('web?$select=Title,AssociatedOwnerGroup/Id&$expand=AssociatedOwnerGroup');
    assert.deepEqual(selected.body, { AssociatedOwnerGroup: { Id: alone.body.Id - 2 }, Title: 'Dev' });
    const verbose = await get('web?$expand=AssociatedOwnerGroup', ACCEPT.verbose);
    assert.equal(verbose.body.d.AssociatedOwnerGroup.__metadata.type, 'SP.Group');
  });

  it("items(n)?$select=AttachmentFiles&$expand=AttachmentFiles: the item's attachments (spo listitem attachment list)", async () => {
    const items = "web/lists/getbytitle('Tasks')/items";
    const none = await get(`${items}(2)?$select=AttachmentFiles&$expand=AttachmentFiles`);
    assert.equal(none.status, 200, JSON.stringify(none.body));
    assert.deepEqual(none.body, { AttachmentFiles: [] });
    for (const name of ['notes.txt', 'plan.txt']) {
      const added = await fetch(`${context.server.site()}/_api/${items}(3)/AttachmentFiles/add(FileName='${name}')`, { method: 'POST', body: 'hello', headers: { Accept: ACCEPT.nometadata } });
      assert.equal(added.status, 200);
    }
    const two = await get(`${items}(3)?$select=AttachmentFiles&$expand=AttachmentFiles`);
    assert.deepEqual(two.body.AttachmentFiles.map((a: any) => [a.FileName, a.ServerRelativeUrl]),
      [['notes.txt', '/sites/dev/Lists/Tasks/Attachments/3/notes.txt'], ['plan.txt', '/sites/dev/Lists/Tasks/Attachments/3/plan.txt']]);
    assert.deepEqual(two.body.AttachmentFiles, (await get(`${items}(3)/AttachmentFiles`)).body.value);
    // Over the collection too, each item with its own; without $select, beside the item's fields.
    const many = await get(`${items}?$select=Id,AttachmentFiles&$expand=AttachmentFiles&$filter=Id le 3`);
    assert.deepEqual(many.body.value.map((i: any) => [i.Id, i.AttachmentFiles.length]), [[1, 0], [2, 0], [3, 2]]);
    const full = await get(`${items}(3)?$expand=AttachmentFiles`);
    assert.equal(full.body.Title, 'Design database schema');
    assert.equal(full.body.AttachmentFiles.length, 2);
  });

  it("lists(…)?$select=VersionPolicies&$expand=VersionPolicies: no trimming by age (spo list get on a library)", async () => {
    const { status, body } = await get("web/lists/GetByTitle('Documents')?$select=VersionPolicies&$expand=VersionPolicies");
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, { VersionPolicies: { DefaultExpireAfterDays: 0, DefaultTrimMode: 0 } });
    assert.deepEqual((await get("web/lists/GetByTitle('Documents')/VersionPolicies")).body, body.VersionPolicies);
  });

  it('lists(…)?$expand=HasUniqueRoleAssignments,RoleAssignments/Member,RoleAssignments/RoleDefinitionBindings,VersionPolicies (spo list get --withPermissions)', async () => {
    const { status, body } = await get("web/lists/GetByTitle('Tasks')?$expand=HasUniqueRoleAssignments,RoleAssignments/Member,RoleAssignments/RoleDefinitionBindings,VersionPolicies");
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.Title, 'Tasks');
    assert.equal(body.HasUniqueRoleAssignments, false);
    assert.equal(body.VersionPolicies.DefaultTrimMode, 0);
    const web = (await get('web/roleassignments?$expand=Member,RoleDefinitionBindings')).body.value;
    // Inherited: the web's assignments, each with its member and levels, as web/roleassignments answers them.
    assert.deepEqual(body.RoleAssignments, web);
    const owners = body.RoleAssignments.find((a: any) => a.Member.Title === 'Dev Owners');
    assert.deepEqual(owners.RoleDefinitionBindings.map((d: any) => d.Name), ['Full Control']);
    // $select reaches two levels down; a name below RoleAssignments that is not a navigation is refused.
    const selected = await get("web/lists/GetByTitle('Tasks')?$select=Title,RoleAssignments/Member/Title&$expand=RoleAssignments/Member");
    assert.deepEqual(selected.body.RoleAssignments.map((a: any) => Object.keys(a)), body.RoleAssignments.map(() => ['Member']));
    assert.ok(selected.body.RoleAssignments.some((a: any) => a.Member.Title === 'Dev Members' && Object.keys(a.Member).length === 1));
    assert.equal((await get("web/lists/GetByTitle('Tasks')?$expand=RoleAssignments/Nope")).status, 400);
    assert.equal((await get("web/lists/GetByTitle('Tasks')?$expand=Nope")).status, 400);
  });
});

describe("CSOM's ProcessQuery (spo propertybag list, spo contenttype add): served (test/integration/csom.test.ts has the rest)", () => {
  const context = useTestServer({ anonymousUser: undefined });
  const processQuery = (headers: Record<string, string>) => fetch(`${context.server.site()}/_vti_bin/client.svc/ProcessQuery`, {
    method: 'POST', headers: { 'Content-Type': 'text/xml', ...headers },
    body: '<Request AddExpandoFieldTypeSuffix="true" SchemaVersion="15.0.0.0" LibraryVersion="16.0.0.0" ApplicationName="CLI" xmlns="http://schemas.microsoft.com/sharepoint/clientquery/2009"><Actions/><ObjectPaths/></Request>',
  });

  it('an authenticated caller with nothing to run gets 200 with the header alone and no ErrorInfo', async () => {
    const auth = `Basic ${Buffer.from('alice@contoso.onmicrosoft.com:alice-demo-pass').toString('base64')}`;
    const info = await fetch(`${context.server.site()}/_api/contextinfo`, { method: 'POST', headers: { Authorization: auth, Accept: 'application/json;odata=nometadata' } });
    const digest = ((await info.json()) as { FormDigestValue: string }).FormDigestValue;
    const res = await processQuery({ Authorization: auth, 'X-RequestDigest': digest });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await res.json() as Array<{ SchemaVersion: string; ErrorInfo: unknown; TraceCorrelationId: string }>;
    assert.equal(body.length, 1);
    assert.equal(body[0]!.SchemaVersion, '15.0.0.0');
    assert.equal(body[0]!.ErrorInfo, null);
    assert.equal(body[0]!.TraceCorrelationId, res.headers.get('sprequestguid'));
  });

  it('without credentials, the 401 challenge as everywhere', async () => {
    const res = await processQuery({});
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /Bearer realm=/);
  });
});
