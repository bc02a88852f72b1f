// ShareObject's roleValue as clients write it: `role:<id>` (PnPjs's shareWith), `role: <id>` and
// `group: <id>` (PnPjs's web.shareObject puts a space), anything else SharePoint's bad argument.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../src/domain/errors.ts';
import { parseRoleValue } from '../../src/services/sharing.ts';

describe('ShareObject roleValue', () => {
  it('names a permission level or a SharePoint group, with or without a space', () => {
    assert.deepEqual(parseRoleValue('role:1073741827'), { kind: 'role', id: 1073741827 });
    assert.deepEqual(parseRoleValue('role: 1073741826'), { kind: 'role', id: 1073741826 });
    assert.deepEqual(parseRoleValue('Group: 5'), { kind: 'group', id: 5 });
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'role:', 'role:abc', 'edit', 'user:3', 1073741827, null, undefined]) {
      assert.throws(() => parseRoleValue(bad), (e: unknown) => e instanceof DomainError && e.reason === 'badArgument', String(bad));
    }
  });
});
