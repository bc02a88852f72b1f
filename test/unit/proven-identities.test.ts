// The proven-identity memo (src/pipeline/proven-identities.ts): an entry holds only while the
// store generation it was proven at stands and until its deadline; keys are hashes that name
// neither the header nor the origin, and differ between processes (instances).

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ProvenIdentities } from '../../src/pipeline/proven-identities.ts';
import type { Identity } from '../../src/pipeline/caller-identity.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const ANN: Identity = { user: { upn: 'ann@contoso.com' } as never, via: 'basic' };
const HEADER = `Basic ${Buffer.from('ann@contoso.com:secret-pw').toString('base64')}`;

it('keys are hashes: neither the header, the password nor the origin appear, and another instance keys differently', () => {
  const memo = new ProvenIdentities();
  const key = memo.keyOf(HEADER, 'http://localhost:1');
  for (const clear of [HEADER, 'secret-pw', Buffer.from('ann@contoso.com:secret-pw').toString('base64'), 'localhost']) assert.ok(!key.includes(clear));
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(memo.keyOf(HEADER, 'http://localhost:1'), key, 'stable within the instance');
  assert.notEqual(memo.keyOf(HEADER, 'http://localhost:2'), key, 'the origin is part of the key');
  assert.notEqual(new ProvenIdentities().keyOf(HEADER, 'http://localhost:1'), key, 'a per-instance prefix');
});

it('an entry holds while the generation it was proven at stands, and is dropped once it moved', () => {
  const memo = new ProvenIdentities();
  const key = memo.keyOf(HEADER, undefined);
  memo.remember(key, ANN, 7, NOW, NOW + 60_000);
  assert.equal(memo.get(key, 7, NOW + 1), ANN);
  assert.equal(memo.get(key, 8, NOW + 1), undefined);
  assert.equal(memo.size, 0, 'the stale entry is gone');
  assert.equal(memo.get(key, 7, NOW + 1), undefined, 'and not found again at the old generation');
});

it('an entry lapses at its deadline, to the millisecond; one already lapsed or proven inside a transaction (NaN) is not kept', () => {
  const memo = new ProvenIdentities();
  const key = memo.keyOf(HEADER, undefined);
  memo.remember(key, ANN, 1, NOW, NOW + 60_000);
  assert.equal(memo.get(key, 1, NOW + 59_999), ANN);
  assert.equal(memo.get(key, 1, NOW + 60_000), undefined);
  memo.remember(key, ANN, 1, NOW, NOW);
  memo.remember(key, ANN, Number.NaN, NOW, NOW + 60_000);
  assert.equal(memo.size, 0);
});

it('stays bounded: past 10,000 entries the oldest tenth goes', () => {
  const memo = new ProvenIdentities();
  for (let i = 0; i < 10_001; i++) memo.remember(`k${i}`, ANN, 1, NOW, NOW + 60_000);
  assert.ok(memo.size <= 10_000 && memo.size >= 9_000, `size ${memo.size}`);
  assert.equal(memo.get('k0', 1, NOW), undefined, 'the oldest went');
  assert.equal(memo.get('k10000', 1, NOW), ANN, 'the newest stayed');
});
