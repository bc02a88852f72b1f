// Conditional requests: the etag forms clients send, a write's If-Match, a read's
// If-None-Match / If-Modified-Since, and the front's side (a store it may only read).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '../../src/domain/errors.ts';
import type { ApiContext } from '../../src/fronts/rest/api/context.ts';
import { conditionsFromHeaders, etagVersion, expectedVersion, isNotModified, NO_CONDITIONS, requireCurrent } from '../../src/services/conditions.ts';

describe('etags', () => {
  it('reads every form clients send: *, "3", 3, W/"3", "{GUID},3", "guid,3"', () => {
    assert.equal(etagVersion('*'), null);
    assert.equal(etagVersion('"3"'), 3);
    assert.equal(etagVersion('3'), 3);
    assert.equal(etagVersion('W/"3"'), 3);
    assert.equal(etagVersion('"{6B8F0E8A-1C2D-4E5F-8A9B-0C1D2E3F4A5B},3"'), 3);
    assert.equal(etagVersion('"6b8f0e8a-1c2d-4e5f-8a9b-0c1d2e3f4a5b,12"'), 12);
  });

  it('text no version can match is -1, so an empty If-Match fails (SharePoint answers 412 to "")', () => {
    assert.equal(etagVersion(''), -1);
    assert.equal(etagVersion('"abc"'), -1);
    assert.equal(expectedVersion({ ifMatch: '' }), -1);
    assert.equal(expectedVersion(NO_CONDITIONS), null);
  });
});

describe('a write\'s If-Match', () => {
  it('passes when absent, *, or the current version; otherwise fails its precondition with both etags', () => {
    requireCurrent(NO_CONDITIONS, 4);
    requireCurrent({ ifMatch: '*' }, 4);
    requireCurrent({ ifMatch: 'W/"4"' }, 4);
    assert.throws(() => requireCurrent({ ifMatch: '"3"' }, 4), (e: unknown) =>
      e instanceof DomainError && e.kind === 'preconditionFailed' && e.reason === 'etagMismatch' && e.args[0] === '"3"' && e.args[1] === '"4"');
    assert.throws(() => requireCurrent({ ifMatch: '' }, 4), (e: unknown) => e instanceof DomainError && e.args[0] === '');
  });
});

describe('a read\'s If-None-Match and If-Modified-Since', () => {
  const etag = '"{AB},7"';
  const modified = new Date('2026-03-04T05:06:07.890Z');

  it('If-None-Match: the etag (weakly compared), one of a list, or *; another etag is not a match', () => {
    assert.equal(isNotModified({ ifNoneMatch: etag }, etag), true);
    assert.equal(isNotModified({ ifNoneMatch: `"x", W/${etag}` }, etag), true);
    assert.equal(isNotModified({ ifNoneMatch: '*' }, etag), true);
    assert.equal(isNotModified({ ifNoneMatch: '"{AB},6"' }, etag), false);
    assert.equal(isNotModified(NO_CONDITIONS, etag, modified), false);
  });

  it('If-Modified-Since: modified at or before the date, to the second; a later change or a bad date is sent', () => {
    assert.equal(isNotModified({ ifModifiedSince: modified.toUTCString() }, etag, modified), true);
    assert.equal(isNotModified({ ifModifiedSince: 'Wed, 04 Mar 2026 05:06:06 GMT' }, etag, modified), false);
    assert.equal(isNotModified({ ifModifiedSince: 'yesterday-ish' }, etag, modified), false);
  });

  it('If-None-Match wins over If-Modified-Since (RFC 9110 §13.1.3)', () => {
    assert.equal(isNotModified({ ifNoneMatch: '"other"', ifModifiedSince: modified.toUTCString() }, etag, modified), false);
  });

  it('headers become conditions, first value of each; none is the shared empty set', () => {
    assert.equal(conditionsFromHeaders({ accept: 'application/json' }), NO_CONDITIONS);
    assert.deepEqual(conditionsFromHeaders({ 'if-match': ['"1"', '"2"'], 'if-none-match': '*' }), { ifMatch: '"1"', ifNoneMatch: '*', ifModifiedSince: undefined });
  });
});

describe('the REST front reads the store and writes through services', () => {
  it('its store has no write methods (a compile-time check: tsc fails if StoreReader grows one)', () => {
    const ctx = { store: { items: {}, directory: {} }, services: {} } as unknown as ApiContext;
    // @ts-expect-error a front cannot create an item through its store
    assert.equal(ctx.store.items.create, undefined);
    // @ts-expect-error nor open a transaction of its own
    assert.equal(ctx.store.transaction, undefined);
    // @ts-expect-error nor change the directory
    assert.equal(ctx.store.directory.setProfileProperty, undefined);
  });
});
