// Every domain failure has SharePoint's catalogue entry of the same name, and maps to it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError, fail } from '../../src/domain/errors.ts';
import { errors, SpError, toSpError } from '../../src/wire/errors.ts';

describe('domain failures → SharePoint errors', () => {
  it('each reason in fail is an entry of the SharePoint catalogue', () => {
    for (const reason of Object.keys(fail)) assert.ok(reason in errors, `no SharePoint catalogue entry for '${reason}'`);
  });

  it('maps with the arguments: status, code, message and headers as the catalogue writes them', () => {
    const column = toSpError(fail.unknownColumn('Nope'));
    assert.deepEqual([column.status, column.code, column.message], [400, errors.unknownColumn('Nope').code, errors.unknownColumn('Nope').message]);
    const busy = toSpError(fail.serviceUnavailable(7));
    assert.equal(busy.status, 503);
    assert.equal(busy.headers['Retry-After'], '7');
    const challenge = toSpError(fail.unauthorized(['Bearer realm="x"', 'Basic realm="spemu"'], 'bad token'));
    assert.equal(challenge.status, 401);
    assert.deepEqual(challenge.headers['WWW-Authenticate'], ['Bearer realm="x"', 'Basic realm="spemu"']);
    assert.equal(challenge.headers['x-ms-diagnostics'], 'bad token');
  });

  it('a reason without an entry is a 500 with the failure message, and SpErrors pass unchanged', () => {
    const unknown = toSpError(new DomainError('conflict', 'noSuchReason', 'Something clashed.'));
    assert.deepEqual([unknown.status, unknown.message], [500, 'Something clashed.']);
    const sp = new SpError(418, '-1, X', 'teapot');
    assert.equal(toSpError(sp), sp);
  });
});
