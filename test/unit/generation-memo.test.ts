// GenerationMemo (domain/generation-memo.ts): the one rule behind the per-caller and per-record
// memos — kept per owner object and key while the generation stands, bounded per owner, nothing
// kept inside a transaction (NaN) or when the generation moved while the value was worked out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GenerationMemo } from '../../src/domain/generation-memo.ts';

test('a value is kept for its owner and key while the generation stands', () => {
  const memo = new GenerationMemo<object, string, string>(10);
  const alice = {};
  const bob = {};
  memo.keep(alice, 1, 1, 'k', 'alice@1');
  assert.equal(memo.get(alice, 1, 'k'), 'alice@1');
  assert.equal(memo.get(alice, 1, 'other'), undefined, 'another key is its own');
  assert.equal(memo.get(bob, 1, 'k'), undefined, 'never shared with another owner');
  assert.equal(memo.get({}, 1, 'k'), undefined, 'an equal-looking owner is another owner');
  assert.equal(memo.get(alice, 2, 'k'), undefined, 'gone once the generation moved');
  memo.keep(alice, 2, 2, 'j', 'alice@2');
  assert.equal(memo.get(alice, 2, 'j'), 'alice@2');
  assert.equal(memo.get(alice, 2, 'k'), undefined, 'keeping under a new generation dropped the old values');
  assert.equal(memo.get(alice, 1, 'k'), undefined, 'and an old generation finds nothing either');
});

test('nothing is kept inside a transaction (NaN) or when the generation moved while it was worked out', () => {
  const memo = new GenerationMemo<object, string, number>(10);
  const owner = {};
  memo.keep(owner, NaN, NaN, 'k', 1);
  assert.equal(memo.get(owner, NaN, 'k'), undefined);
  memo.keep(owner, 3, 3, 'k', 3);
  memo.keep(owner, NaN, NaN, 'k', 99);
  assert.equal(memo.get(owner, 3, 'k'), 3, 'a transaction neither keeps nor drops what stands');
  memo.keep(owner, 4, 5, 'j', 4);
  assert.equal(memo.get(owner, 4, 'j'), undefined, 'made at 4, but 5 now: it may mix old and new');
  assert.equal(memo.get(owner, 5, 'j'), undefined);
  assert.equal(memo.get(owner, 3, 'k'), 3, 'a value not kept leaves the others as they were');
});

test('past its bound an owner\'s values are dropped and worked out again; other owners keep theirs', () => {
  const memo = new GenerationMemo<object, number, number>(3);
  const owner = {};
  const other = {};
  memo.keep(other, 1, 1, 0, 100);
  for (const k of [1, 2, 3]) memo.keep(owner, 1, 1, k, k);
  assert.deepEqual([1, 2, 3].map((k) => memo.get(owner, 1, k)), [1, 2, 3]);
  memo.keep(owner, 1, 1, 4, 4);
  assert.deepEqual([1, 2, 3].map((k) => memo.get(owner, 1, k)), [undefined, undefined, undefined], 'at the bound, keeping one more starts afresh');
  assert.equal(memo.get(owner, 1, 4), 4);
  memo.keep(owner, 1, 1, 5, 5);
  assert.deepEqual([4, 5].map((k) => memo.get(owner, 1, k)), [4, 5]);
  assert.equal(memo.get(other, 1, 0), 100, 'the bound is per owner');
});
