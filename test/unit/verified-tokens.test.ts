// The verified-token cache: an entry lapses at the token's exp (or its own TTL), stays bounded,
// and is keyed by a hash, never by the token.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { VerifiedTokens } from '../../src/identity/verified-tokens.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');

it('remembers a token until its exp, to the millisecond, and no longer', () => {
  const cache = new VerifiedTokens();
  cache.remember('a.b.c', 'bob@contoso.com', NOW, NOW / 1000 + 60);
  assert.equal(cache.get('a.b.c', NOW + 59_999), 'bob@contoso.com');
  assert.equal(cache.get('a.b.c', NOW + 60_000), undefined);
  assert.equal(cache.size, 0, 'the lapsed entry is dropped');
});

it('a token without exp is remembered for ten minutes; an already expired one not at all', () => {
  const cache = new VerifiedTokens();
  cache.remember('no.exp.token', 'ann', NOW, undefined);
  assert.equal(cache.get('no.exp.token', NOW + 9 * 60_000), 'ann');
  assert.equal(cache.get('no.exp.token', NOW + 10 * 60_000), undefined);
  cache.remember('old.token.x', 'ann', NOW, NOW / 1000 - 1);
  assert.equal(cache.size, 0);
});

it('another token is another entry, even for the same user', () => {
  const cache = new VerifiedTokens();
  cache.remember('t.one.x', 'ann', NOW, undefined);
  assert.equal(cache.get('t.one.y', NOW), undefined);
});

it('stays bounded: past 10,000 entries the oldest go first', () => {
  const cache = new VerifiedTokens();
  for (let i = 0; i <= 10_000; i++) cache.remember(`token-${i}`, `user-${i}`, NOW, undefined);
  assert.ok(cache.size <= 10_000, String(cache.size));
  assert.equal(cache.get('token-0', NOW), undefined, 'the oldest was evicted');
  assert.equal(cache.get('token-10000', NOW), 'user-10000');
});
