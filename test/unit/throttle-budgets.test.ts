// The resource-unit model's arithmetic, on an injected clock: sliding windows, Retry-After,
// RateLimit-* from 80 %, per-user, per-app and tenant budgets, blocking, costs, and the
// --throttle text.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlidingWindow } from '../../src/pipeline/throttle/window.ts';
import { Budgets } from '../../src/pipeline/throttle/budgets.ts';
import { parseThrottle, SPO_DEFAULT, ThrottleConfigError, throttleFromValue } from '../../src/pipeline/throttle/config.ts';
import { requestCost } from '../../src/pipeline/throttle/costs.ts';

const T0 = 1_700_000_000_000;

describe('a sliding window', () => {
  it('counts what was spent in the last window and lets it slide out', () => {
    const w = new SlidingWindow(10, 60_000);
    w.spend(4, T0);
    w.spend(5, T0 + 30_000);
    assert.equal(w.used(T0 + 30_000), 9);
    assert.equal(w.fits(1, T0 + 30_000), true);
    assert.equal(w.fits(2, T0 + 30_000), false);
    assert.equal(w.used(T0 + 60_000), 5, 'the first 4 are a minute old');
    assert.equal(w.used(T0 + 90_000), 0);
  });

  it('says when a cost will fit: once enough of the oldest units have slid out', () => {
    const w = new SlidingWindow(10, 60_000);
    w.spend(4, T0);
    w.spend(6, T0 + 20_000);
    assert.equal(w.waitFor(0, T0 + 30_000), 0);
    assert.equal(w.waitFor(3, T0 + 30_000), 30_000, 'the 4 of T0 free room for 3 at T0 + 60 s');
    assert.equal(w.waitFor(5, T0 + 30_000), 50_000, '5 needs the 6 of T0 + 20 s gone too');
    assert.equal(w.waitFor(11, T0 + 30_000), 50_000, 'more than the whole limit waits for an empty window');
    assert.equal(w.nextRelease(T0 + 30_000), 30_000);
    assert.equal(w.fits(11, T0 + 90_000), true, 'and then fits, or it never could');
  });

  it('keeps at most 600 slots however many requests come', () => {
    const w = new SlidingWindow(1_000_000, 24 * 3_600_000);
    for (let i = 0; i < 5000; i++) w.spend(1, T0 + i * 1000);
    assert.equal(w.used(T0 + 5000 * 1000), 5000);
    assert.ok((w as unknown as { slots: unknown[] }).slots.length <= 600);
  });
});

describe('budgets per user, app and tenant', () => {
  const config = (over: Partial<typeof SPO_DEFAULT> = {}) => ({ app: [{ units: 10, windowMs: 10_000 }], user: [], tenant: [], countThrottled: false, ...over });
  const alice = { user: 'alice@x', app: 'app-1' };

  it('admits until the app budget is spent, then 429 with whole-second Retry-After and RateLimit-* of the app budget', () => {
    const b = new Budgets(config());
    for (let i = 0; i < 5; i++) assert.equal(b.charge(alice, 2, T0 + i * 100).kind, 'admitted');
    const refused = b.charge(alice, 2, T0 + 1000);
    assert.equal(refused.kind, 'throttled');
    if (refused.kind !== 'throttled') return;
    // The first 2 RU (spent at T0) slide out at T0 + 10 s: 9 s from T0 + 1 s.
    assert.equal(refused.retryAfter, 9);
    assert.deepEqual(refused.headers, { 'RateLimit-Limit': '10', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '9' });
    assert.equal(b.charge(alice, 2, T0 + 10_000).kind, 'admitted', 'after Retry-After it fits');
  });

  it('sends RateLimit-* once 80 % of the app budget is used, not before', () => {
    const b = new Budgets(config());
    const seen = [1, 2, 3, 4].map((i) => b.charge(alice, 2, T0 + i));
    assert.deepEqual(seen.slice(0, 3).map((c) => c.kind === 'admitted' && c.headers), [{}, {}, {}]);
    assert.deepEqual(seen[3], { kind: 'admitted', headers: { 'RateLimit-Limit': '10', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '10' } });
  });

  it('keeps apps apart, and a user limit counts requests across apps without RateLimit-* headers', () => {
    const b = new Budgets(config({ user: [{ units: 3, windowMs: 5000 }] }));
    assert.equal(b.charge(alice, 2, T0).kind, 'admitted');
    assert.equal(b.charge({ ...alice, app: 'app-2' }, 2, T0).kind, 'admitted');
    assert.equal(b.charge({ ...alice, app: 'app-3' }, 2, T0).kind, 'admitted');
    const fourth = b.charge({ ...alice, app: 'app-4' }, 2, T0 + 1000);
    assert.equal(fourth.kind, 'throttled');
    assert.deepEqual(fourth.kind === 'throttled' && fourth.headers, {}, 'another limit than the app minute: no RateLimit-*');
    assert.equal(fourth.kind === 'throttled' && fourth.retryAfter, 4);
    assert.equal(b.charge({ user: 'bob@x', app: 'app-4' }, 2, T0 + 1000).kind, 'admitted', 'another user is not throttled');
  });

  it('counts throttled requests toward the limits when asked (as SharePoint documents)', () => {
    const b = new Budgets(config({ countThrottled: true }));
    for (let i = 0; i < 5; i++) b.charge(alice, 2, T0);
    const first = b.charge(alice, 2, T0 + 5000);
    // 12 RU in the window; room for 2 more needs all of T0's 10 gone: T0 + 10 s.
    assert.equal(first.kind === 'throttled' && first.retryAfter, 5);
    const second = b.charge(alice, 2, T0 + 9000);
    // Now 14 RU: T0's 10 go at T0 + 10 s, leaving 4 (the throttled ones): 2 more fit then.
    assert.equal(second.kind === 'throttled' && second.retryAfter, 1);
    assert.equal(b.charge(alice, 2, T0 + 10_000).kind, 'admitted');
  });

  it('blocks an app throttled too often: 503 with Retry-After until the block ends', () => {
    const b = new Budgets(config({ block: { after: 2, windowMs: 60_000, forMs: 30_000 } }));
    for (let i = 0; i < 5; i++) b.charge(alice, 2, T0);
    assert.equal(b.charge(alice, 2, T0 + 1).kind, 'throttled');
    const blocked = b.charge(alice, 2, T0 + 2);
    assert.deepEqual({ kind: blocked.kind, retryAfter: blocked.kind === 'blocked' && blocked.retryAfter }, { kind: 'blocked', retryAfter: 30 });
    const later = b.charge(alice, 2, T0 + 20_000);
    assert.equal(later.kind === 'blocked' && later.retryAfter, 11, 'still blocked, for what is left');
    assert.equal(b.charge(alice, 2, T0 + 30_002).kind, 'admitted');
  });

  it('a tenant budget is shared by every user and app', () => {
    const b = new Budgets(config({ app: [], tenant: [{ units: 4, windowMs: 1000 }] }));
    assert.equal(b.charge(alice, 2, T0).kind, 'admitted');
    assert.equal(b.charge({ user: 'bob@x', app: 'other' }, 2, T0).kind, 'admitted');
    assert.equal(b.charge({ user: 'carol@x', app: 'third' }, 1, T0).kind, 'throttled');
  });
});

describe('what a request costs', () => {
  it('1 for one thing, 2 for a collection, a query or a write, 5 for permissions, 0 for a $batch envelope', () => {
    const cases: Array<[string, string, number]> = [
      ['GET', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(5)", 1],
      ['GET', '/sites/dev/_api/web', 1],
      ['GET', '/sites/dev/Shared%20Documents/a.docx', 1],
      ['GET', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items", 2],
      ['GET', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(5)?$filter=Id eq 5", 2],
      ['GET', '/sites/dev/_api/web/lists', 2],
      ['POST', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items", 2],
      ['DELETE', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(5)", 2],
      ['GET', '/sites/dev/_api/web/roleassignments', 5],
      ['POST', "/sites/dev/_api/web/lists/getbytitle('Tasks')/breakroleinheritance(true)", 5],
      ['GET', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)?$expand=RoleAssignments", 5],
      ['POST', '/sites/dev/_api/$batch', 0],
    ];
    for (const [method, url, cost] of cases) assert.equal(requestCost(method, url), cost, `${method} ${url}`);
    assert.equal(requestCost('POST', "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(5)", 'MERGE'), 2);
  });
});

describe('the --throttle text', () => {
  it('spo-default is the smallest tier of SharePoint Online\'s documented limits', () => {
    assert.deepEqual(parseThrottle('spo-default'), SPO_DEFAULT);
    assert.deepEqual(SPO_DEFAULT.app, [{ units: 1250, windowMs: 60_000 }, { units: 1_200_000, windowMs: 86_400_000 }]);
    assert.deepEqual(SPO_DEFAULT.user, [{ units: 3000, windowMs: 300_000 }]);
  });

  it('reads settings, which replace the preset\'s limits of their kind', () => {
    assert.deepEqual(parseThrottle('spo-default,app-ru=10/5s'), { ...SPO_DEFAULT, app: [{ units: 10, windowMs: 5000 }] });
    assert.deepEqual(parseThrottle('ru-per-minute=100,ru-per-day=5000,user-requests=20/10s,block-after=3/1m,block-for=30s,count-throttled=false'), {
      app: [{ units: 100, windowMs: 60_000 }, { units: 5000, windowMs: 86_400_000 }], user: [{ units: 20, windowMs: 10_000 }], tenant: [],
      block: { after: 3, windowMs: 60_000, forMs: 30_000 }, countThrottled: false,
    });
    assert.equal(parseThrottle('off'), undefined);
    assert.equal(parseThrottle(''), undefined);
  });

  it('refuses what it cannot read, naming it', () => {
    assert.throws(() => parseThrottle('spo-huge'), ThrottleConfigError);
    assert.throws(() => parseThrottle('app-ru=ten/1m'), /app-ru/);
    assert.throws(() => parseThrottle('app-ru=10/1y'), /duration/);
    assert.throws(() => parseThrottle('burst=1'), /unknown setting 'burst'/);
    assert.throws(() => throttleFromValue({ app: [{ units: 0, windowMs: 1 }] }), ThrottleConfigError);
  });
});
