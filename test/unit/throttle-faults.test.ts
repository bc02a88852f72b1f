// Fault rules: parsing (JSON and --fault text), matching by method, path, user and app, the
// share they fire on and the latency they add — deterministic for a seed — and the app id a
// bearer token names.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FaultConfigError, matches, parseFaultFlag, parseFaults, patternRegExp } from '../../src/pipeline/throttle/faults.ts';
import { appIdOf, TrafficGate } from '../../src/pipeline/throttle/gate.ts';
import { faultError } from '../../src/wire/throttle-errors.ts';

const target = { method: 'GET', path: "/sites/dev/_api/web/lists/getbytitle('Tasks')/items", user: 'alice@contoso.com', app: '' };
const gateWith = (rules: unknown[], seed = 1) => new TrafficGate({ now: () => 0, debug: false }, { faults: parseFaults({ seed, rules }) });

describe('fault rules', () => {
  it('match by method, path pattern, user and app (case-insensitive patterns)', () => {
    const rule = (r: object) => parseFaults({ rules: [{ error: 500, ...r }] }).rules[0]!;
    assert.equal(matches(rule({}), target), true);
    assert.equal(matches(rule({ method: 'get' }), target), true);
    assert.equal(matches(rule({ method: 'POST' }), target), false);
    assert.equal(matches(rule({ path: '*/ITEMS' }), target), true);
    assert.equal(matches(rule({ path: '*/items(*)' }), target), false);
    assert.equal(matches(rule({ user: '*@contoso.com' }), target), true);
    assert.equal(matches(rule({ user: 'bob@*' }), target), false);
    assert.equal(matches(rule({ app: '' }), target), true, "'' is a request without an app id");
    assert.equal(matches(rule({ app: 'abc*' }), { ...target, app: 'abcdef' }), true);
    assert.equal(matches(rule({ app: 'abc*' }), target), false);
    assert.equal(patternRegExp('/a.b?(c)').test('/a.bx(c)'), true);
    assert.equal(patternRegExp('/a.b').test('/axb'), false, 'a dot is a dot');
  });

  it('fire on their share of requests, the same ones for the same seed', () => {
    const draw = (seed: number) => {
      const gate = gateWith([{ rate: 0.3, error: 503 }], seed);
      return Array.from({ length: 1000 }, () => gate.plan(target, false).action !== undefined);
    };
    const a = draw(42);
    assert.deepEqual(draw(42), a, 'replayed exactly');
    assert.notDeepEqual(draw(43), a);
    const fired = a.filter(Boolean).length;
    assert.ok(fired > 250 && fired < 350, `about 30 % fired: ${fired}`);
  });

  it('add latency: fixed, uniform within its bounds, normal around its mean and never below 0; several rules add up', () => {
    assert.equal(gateWith([{ latency: 120 }, { latency: 30 }]).plan(target, false).latencyMs, 150);
    const uniform = gateWith([{ latency: { min: 100, max: 200 } }]);
    const u = Array.from({ length: 500 }, () => uniform.plan(target, false).latencyMs);
    assert.ok(u.every((ms) => ms >= 100 && ms <= 200));
    assert.ok(Math.max(...u) - Math.min(...u) > 80, 'spread over the range');
    const normal = gateWith([{ latency: { mean: 300, stdDev: 50 } }]);
    const n = Array.from({ length: 2000 }, () => normal.plan(target, false).latencyMs);
    const mean = n.reduce((s, x) => s + x, 0) / n.length;
    assert.ok(Math.abs(mean - 300) < 10, `mean ${mean}`);
    assert.ok(n.every((ms) => ms >= 0));
    const wide = gateWith([{ latency: { mean: 10, stdDev: 100 } }]);
    assert.ok(Array.from({ length: 200 }, () => wide.plan(target, false).latencyMs).every((ms) => ms >= 0));
  });

  it('the first rule that errors, drops or truncates decides; a $batch part is never dropped or cut', () => {
    const gate = gateWith([{ name: 'slow', latency: 10 }, { name: 'cut', truncate: 5 }, { name: 'fail', error: 500 }]);
    const whole = gate.plan(target, false);
    assert.deepEqual(whole.fired.map((r) => r.name), ['slow', 'cut', 'fail']);
    assert.equal(whole.action?.name, 'cut');
    assert.equal(gate.plan(target, true).action?.name, 'fail');
  });

  it('read from JSON or from --fault text, and refuse what they cannot use', () => {
    assert.deepEqual(parseFaultFlag('method=GET,path=*/items*,error=503,rate=0.5,retry-after=7', 0), {
      name: 'rule 1', method: 'GET', path: '*/items*', user: undefined, app: undefined, rate: 0.5,
      latency: undefined, error: 503, retryAfter: 7, drop: undefined, truncate: undefined,
    });
    assert.deepEqual(parseFaultFlag('latency=100-500', 0).latency, { kind: 'uniform', min: 100, max: 500 });
    assert.deepEqual(parseFaultFlag('latency=normal:300:50', 0).latency, { kind: 'normal', mean: 300, stdDev: 50 });
    assert.equal(parseFaultFlag('drop', 0).drop, 'before');
    assert.equal(parseFaultFlag('drop=after,name=late', 0).drop, 'after');
    assert.equal(parseFaultFlag('error=listViewThreshold', 0).error, 'listViewThreshold');
    assert.deepEqual(parseFaults({ seed: 3, rules: ['truncate=10'] }).rules[0]!.truncate, 10);
    for (const bad of [{ rules: [{}] }, { rules: [{ error: 418 }] }, { rules: [{ error: 500, rate: 2 }] }, { rules: [{ error: 500, colour: 'red' }] },
      { rules: [{ latency: { min: 5 } }] }, { seed: 1.5, rules: [] }, { rules: [{ drop: 'sideways' }] }]) {
      assert.throws(() => parseFaults(bad), FaultConfigError, JSON.stringify(bad));
    }
  });
});

describe('the errors a rule answers with', () => {
  it('are SharePoint\'s: status, code, Retry-After where a client waits', () => {
    const e429 = faultError(429, 7);
    assert.deepEqual([e429.status, e429.headers['Retry-After']], [429, '7']);
    const e503 = faultError(503, 3);
    assert.deepEqual([e503.status, e503.headers['Retry-After']], [503, '3']);
    assert.equal(faultError(504, 5).status, 504);
    assert.equal(faultError(500, 5).status, 500);
    assert.match(faultError('securityValidation', 5).code, /^-2130575252, /);
    assert.match(faultError('listViewThreshold', 5).code, /SPQueryThrottledException/);
  });
});

describe('the app a request comes from', () => {
  const token = (claims: object) => `Bearer e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
  it('is a bearer token\'s appid (v1) or azp (v2), else none', () => {
    assert.equal(appIdOf(token({ appid: 'ABC-1' })), 'abc-1');
    assert.equal(appIdOf(token({ azp: 'def' })), 'def');
    assert.equal(appIdOf(token({ sub: 'x' })), '');
    assert.equal(appIdOf('Basic dXNlcjpwdw=='), '');
    assert.equal(appIdOf(undefined), '');
    assert.equal(appIdOf('Bearer not-a-jwt'), '');
  });
});

describe('the stage as a whole (TrafficGate.admit)', () => {
  const request = { method: 'GET', url: '/sites/dev/_api/web', headers: {}, upn: 'Alice@Contoso.com', inBatch: false };
  const logger = () => {
    const lines: Array<{ details: Record<string, unknown>; message: string }> = [];
    return { lines, warn: (details: object, message: string) => { lines.push({ details: details as Record<string, unknown>, message }); } };
  };

  it('does nothing until configured', async () => {
    const gate = new TrafficGate({ now: () => 0, debug: false });
    assert.equal(gate.active, false);
    assert.deepEqual(await gate.admit(request, logger()), { headers: {} });
  });

  it('logs every injected fault with the rule that fired; X-Spemu-Fault only with debug', async () => {
    for (const debug of [false, true]) {
      const log = logger();
      const gate = new TrafficGate({ now: () => 0, debug }, { faults: parseFaults({ rules: [{ name: 'web down', path: '*/_api/web', error: 503, retryAfter: 4 }] }) });
      const admission = await gate.admit(request, log);
      assert.equal(admission.refusal?.status, 503);
      assert.equal(admission.refusal?.headers['Retry-After'], '4');
      assert.equal(admission.refusal?.headers['X-Spemu-Fault'], debug ? 'web down' : undefined);
      assert.deepEqual(log.lines.map((l) => [l.message, l.details.rule, l.details.fault, l.details.user]), [['fault injected', 'web down', 'error 503', 'alice@contoso.com']]);
    }
  });

  it('throttles on the injected clock and logs the limit', async () => {
    let now = 1_000_000;
    const log = logger();
    const gate = new TrafficGate({ now: () => now, debug: false }, { throttle: { app: [{ units: 2, windowMs: 4000 }], user: [], tenant: [], countThrottled: false } });
    assert.equal((await gate.admit(request, log)).refusal, undefined);
    assert.deepEqual((await gate.admit(request, log)).headers, { 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '4' });
    now += 1000;
    const third = await gate.admit(request, log);
    assert.equal(third.refusal?.status, 429);
    assert.equal(third.refusal?.headers['Retry-After'], '3');
    assert.match(String(log.lines[0]?.details.limit), /^app \(none\) 2\/4s RU$/);
    now += 3000;
    assert.equal((await gate.admit(request, log)).refusal, undefined);
  });

  it('drop and truncate: before the request, after it, or the body cut', async () => {
    const admit = (rule: object, inBatch = false) =>
      new TrafficGate({ now: () => 0, debug: false }, { faults: parseFaults({ rules: [rule] }) }).admit({ ...request, inBatch }, logger());
    assert.equal((await admit({ drop: true })).dropNow, true);
    assert.deepEqual((await admit({ drop: 'after' })).delivery, { kind: 'drop' });
    assert.deepEqual((await admit({ truncate: 12 })).delivery, { kind: 'truncate', bytes: 12 });
    assert.deepEqual(await admit({ drop: true }, true), { headers: {} }, 'a $batch part is never dropped');
  });
});
