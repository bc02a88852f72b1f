// Login-name parsing (src/identity/logins.ts) and EnsureUser's permission rule, without a server.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from '../../src/fronts/rest/api/resolve.ts';
import { parseApiPath } from '../../src/odata/path.ts';
import { parseLogin } from '../../src/identity/logins.ts';
import { webPrincipalMethods } from '../../src/fronts/rest/api/types/principals.ts';
import type { ApiContext } from '../../src/fronts/rest/api/context.ts';
import { toSpError, isReportable } from '../../src/wire/errors.ts';

describe('parseLogin', () => {
  const cases: Array<[string, ReturnType<typeof parseLogin>]> = [
    ['i:0#.f|membership|alice@contoso.com', { kind: 'user', name: 'alice@contoso.com' }],
    ['I:0#.F|Membership|Alice@Contoso.com', { kind: 'user', name: 'Alice@Contoso.com' }],
    ['alice@contoso.com', { kind: 'user', name: 'alice@contoso.com' }],
    ['  alice@contoso.com ', { kind: 'user', name: 'alice@contoso.com' }],
    ['i:0#.w|CONTOSO\\alice', { kind: 'account', account: 'alice' }],
    ['CONTOSO\\alice', { kind: 'account', account: 'alice' }],
    ['c:0t.c|tenant|5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f', { kind: 'groupId', id: '5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f' }],
    ['c:0o.c|federateddirectoryclaimprovider|5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f', { kind: 'groupId', id: '5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f' }],
    ['c:0o.c|federateddirectoryclaimprovider|5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f_o', { kind: 'groupId', id: '5b0e7f3a-9c2d-4e8b-a1f6-3d4c2b1a0e9f' }],
    ['c:0(.s|true', { kind: 'everyone' }],
    ['c:0-.f|rolemanager|spo-grid-all-users/0d3c1a2b-0000-4000-8000-000000000001', { kind: 'everyoneExceptExternal', tenantId: '0d3c1a2b-0000-4000-8000-000000000001' }],
    ['i:0i.t|00000003-0000-0ff1-ce00-000000000000|app@sharepoint', { kind: 'unknown' }],
    ['c:0!.s|windows', { kind: 'unknown' }],
    ['Engineering', { kind: 'name', name: 'Engineering' }],
    ['Everyone except external users', { kind: 'name', name: 'Everyone except external users' }],
  ];
  for (const [text, expected] of cases) {
    it(text, () => assert.deepEqual(parseLogin(text), expected));
  }
});

describe('EnsureUser permissions', () => {
  it('a visitor gets SharePoint\'s 403 while the path resolves, before anything is looked up or read', async () => {
    const ctx = { web: { id: 'w' }, principal: { userId: 4, loginName: 'i:0#.f|membership|dave@contoso.com', upn: 'dave@contoso.com', role: 'visitor', via: 'basic' },
      body: undefined, verboseBody: false, site: { id: 's' }, store: { roleAssignments: { scopes: async () => new Map() } } } as unknown as ApiContext;
    assert.equal(webPrincipalMethods.ensureuser.permission, 'AddListItems');
    await assert.rejects(resolve(parseApiPath('web/ensureuser', new Map()), 'POST', ctx), (e: unknown) => {
      assert.ok(isReportable(e));
      assert.equal(toSpError(e).status, 403);
      assert.equal(toSpError(e).code, '-2147024891, System.UnauthorizedAccessException');
      return true;
    });
  });
});
