// The flags of throttling and faults: --throttle, --faults, --fault (repeatable), --faults-seed,
// --faults-debug, and startServer's checks of what they give (ConfigError, named).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCommandLine } from '../../src/cli/options.ts';
import { ConfigError, resolveOptions } from '../../src/config.ts';

describe('throttling and fault flags', () => {
  it('read into server options, fault rules kept as their text until startServer checks them', () => {
    const { options } = readCommandLine(['--throttle', 'spo-default', '--fault', 'method=GET,error=503', '--fault', 'latency=100-200', '--faults-seed', '9', '--faults-debug'], {});
    assert.equal(options.throttle, 'spo-default');
    assert.deepEqual(options.faults, { seed: 9, rules: ['method=GET,error=503', 'latency=100-200'] });
    assert.equal(options.faultsDebug, true);
    const resolved = resolveOptions(options);
    assert.equal(resolved.throttle?.app[0]?.units, 1250);
    assert.deepEqual(resolved.faults?.rules.map((r) => [r.method, r.error, r.latency?.kind]), [['GET', 503, undefined], [undefined, undefined, 'uniform']]);
  });

  it('take a faults file, or environment variables', () => {
    assert.equal(readCommandLine(['--faults', 'faults.json'], {}).options.faults, 'faults.json');
    assert.equal(readCommandLine([], { SPEMU_THROTTLE: 'app-ru=5/1s' }).options.throttle, 'app-ru=5/1s');
    assert.equal(resolveOptions({ faults: 'faults.json' }).faultsFile, 'faults.json');
  });

  it('are off by default', () => {
    const resolved = resolveOptions({});
    assert.deepEqual([resolved.throttle, resolved.faults, resolved.faultsFile, resolved.faultsDebug], [undefined, undefined, undefined, false]);
  });

  it('refuse a file and rules together, and what does not parse, as ConfigError', () => {
    assert.throws(() => readCommandLine(['--faults', 'f.json', '--fault', 'error=500'], {}), ConfigError);
    assert.throws(() => resolveOptions({ throttle: 'app-ru=lots' }), ConfigError);
    assert.throws(() => resolveOptions({ faults: { rules: ['error=418'] } }), (e: Error) => e instanceof ConfigError && /error must be one of/.test(e.message));
  });
});
