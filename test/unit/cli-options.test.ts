// Command-line flags and their SPEMU_<NAME> environment variables.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readCommandLine, USAGE } from '../../src/cli/options.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { ConfigError, resolveOptions } from '../../src/config.ts';

describe('spemu flags', () => {
  it('reads every core flag', () => {
    const { options } = readCommandLine(['--host', '0.0.0.0', '--port', '0', '--data', 'ws', '--db', ':memory:', '--seed', 't.json',
      '--reset', '--list-view-threshold', '0', '--log-level', 'warn'], {});
    const { host, port, data, db, seed, reset, listViewThreshold, logLevel } = options;
    assert.deepEqual({ host, port, data, db, seed, reset, listViewThreshold, logLevel },
      { host: '0.0.0.0', port: 0, data: 'ws', db: ':memory:', seed: 't.json', reset: true, listViewThreshold: 0, logLevel: 'warn' });
  });

  it('takes SPEMU_<NAME> variables, and a flag beats its variable', () => {
    const env = { SPEMU_PORT: '9000', SPEMU_HOST: '::1', SPEMU_LIST_VIEW_THRESHOLD: '10', SPEMU_RESET: 'true' };
    const fromEnv = readCommandLine([], env).options;
    assert.equal(fromEnv.port, 9000);
    assert.equal(fromEnv.host, '::1');
    assert.equal(fromEnv.listViewThreshold, 10);
    assert.equal(fromEnv.reset, true);
    assert.equal(readCommandLine(['--port', '7000'], env).options.port, 7000);
  });

  it('reads --max-file-size in bytes or with a unit, and refuses what is no size', () => {
    assert.equal(readCommandLine(['--max-file-size', '1048576'], {}).options.maxFileSize, 1048576);
    assert.equal(readCommandLine(['--max-file-size', '250MB'], {}).options.maxFileSize, 250 * 1024 * 1024);
    assert.equal(readCommandLine([], { SPEMU_MAX_FILE_SIZE: '1.5gb' }).options.maxFileSize, 1.5 * 1024 ** 3);
    for (const bad of ['0', 'big', '-5MB', '12 TB']) {
      assert.throws(() => readCommandLine([`--max-file-size=${bad}`], {}), (e: unknown) => e instanceof ConfigError && /--max-file-size must be a size/.test(e.message), bad);
    }
  });

  it('reads --managed-identity (or SPEMU_MANAGED_IDENTITY)', () => {
    assert.equal(readCommandLine(['--managed-identity', 'alice@contoso.onmicrosoft.com'], {}).options.managedIdentity, 'alice@contoso.onmicrosoft.com');
    assert.equal(readCommandLine([], { SPEMU_MANAGED_IDENTITY: 'bob@contoso.onmicrosoft.com' }).options.managedIdentity, 'bob@contoso.onmicrosoft.com');
    assert.equal(readCommandLine([], {}).options.managedIdentity, undefined);
  });

  it('reads --change-log-days (and SPEMU_CHANGE_LOG_DAYS); the server refuses less than a day', () => {
    assert.equal(readCommandLine(['--change-log-days', '7'], {}).options.changeLogDays, 7);
    assert.equal(readCommandLine([], { SPEMU_CHANGE_LOG_DAYS: '30' }).options.changeLogDays, 30);
    assert.equal(resolveOptions({}).changeLogDays, 60);
    assert.throws(() => resolveOptions({ changeLogDays: 0 }), (e: unknown) => e instanceof ConfigError && /--change-log-days must be a whole number/.test(e.message));
  });

  it('the usage ends with every command spemu dispatches, each with its summary, also when a flag is refused', () => {
    const [, list] = USAGE.split('\nCommands (spemu <command> --help for each):\n');
    assert.ok(list, 'a Commands section at the end');
    const listed = list.split('\n').map((line) => /^  (\S+)\s+(\S.*)$/.exec(line));
    assert.deepEqual(listed.map((m) => m?.[1]), Object.keys(COMMANDS));
    assert.deepEqual(listed.map((m) => m?.[2]), Object.values(COMMANDS).map((c) => c.summary));
    assert.throws(() => readCommandLine(['--prot', '1'], {}), (e: unknown) => e instanceof ConfigError && e.message.endsWith(list));
  });

  it('refuses unknown flags and malformed numbers with a usage message', () => {
    assert.throws(() => readCommandLine(['--prot', '1'], {}), (e: unknown) => e instanceof ConfigError && /Usage: spemu/.test(e.message));
    assert.throws(() => readCommandLine(['--port', 'eighty'], {}), (e: unknown) => e instanceof ConfigError && /--port must be a whole number/.test(e.message));
  });
});
