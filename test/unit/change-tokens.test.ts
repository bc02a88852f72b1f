// SharePoint's change tokens: `1;<scope>;<guid>;<.NET ticks>;<number>`, read and written.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatToken, parseToken, ticksOf } from '../../src/domain/change-tokens.ts';
import { DomainError } from '../../src/domain/errors.ts';

const ID = '482e418a-0900-414b-8902-02248c1de4a2';

describe('change tokens', () => {
  it('ticks are .NET ticks (100 ns since 0001-01-01 UTC), exact past 2^53', () => {
    assert.equal(ticksOf(0), '621355968000000000');
    assert.equal(ticksOf(Date.UTC(2013, 1, 3, 22, 17, 54, 950)), '634955266749500000', 'the reference example\'s time');
  });

  it('formats and reads back scope, id, time and number', () => {
    const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const text = formatToken('list', ID, at, 5749111);
    assert.equal(text, `1;3;${ID};${ticksOf(at)};5749111`);
    assert.deepEqual(parseToken(text), { scope: 3, id: ID, timeMs: at, number: 5749111 });
    assert.equal(parseToken(formatToken('site', ID, at, 0)).scope, 1);
    assert.equal(parseToken(formatToken('web', ID, at, 0)).scope, 2);
  });

  it('reads what clients build: -1 for "after this time", braces and upper case, ticks JavaScript rounded', () => {
    const ms = Date.UTC(2024, 0, 1);
    const pnp = `1;3;{${ID.toUpperCase()}};${ms * 10000 + 621355968000000000};-1`; // PnPjs createChangeToken's arithmetic
    const token = parseToken(pnp);
    assert.equal(token.number, -1);
    assert.equal(token.id, ID);
    assert.ok(Math.abs(token.timeMs - ms) < 1);
  });

  it('refuses what is no token', () => {
    for (const bad of ['', 'x', `2;3;${ID};0;1`, `1;4;${ID};0;1`, `1;3;not-a-guid;0;1`, `1;3;${ID};ticks;1`, `1;3;${ID};0;-2`, `1;3;${ID};0;1.5`, `1;3;${ID};0`]) {
      assert.throws(() => parseToken(bad), (e: unknown) => e instanceof DomainError && e.reason === 'invalidChangeToken', bad);
    }
  });
});
