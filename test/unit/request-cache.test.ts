// The REST front's request caches (src/fronts/rest/request-cache.ts): bounded, second chance
// for what is used, parsed requests frozen (a handler that wrote to one would throw, not leak
// into the next request), and metadata plans made again once the store's generation moves.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cachedAbsoluteUrl, CACHED_URL_LENGTH, derivedFrom, keepRoute, knownRoute, Lru, parsedRequest, plannedFor } from '../../src/fronts/rest/request-cache.ts';
import { parseRequestQuery } from '../../src/fronts/rest/query-options.ts';

test('an Lru keeps at most its limit, and an entry read since it was last considered outlives newer unread ones', () => {
  const lru = new Lru<number>(3);
  for (const k of ['a', 'b', 'c']) lru.set(k, k.charCodeAt(0));
  assert.equal(lru.get('a'), 97);
  lru.set('d', 100);
  assert.equal(lru.size, 3);
  assert.equal(lru.get('b'), undefined, 'the oldest unread one went');
  assert.equal(lru.get('a'), 97, 'the read one stayed');
  for (let i = 0; i < 100; i++) lru.set(`k${i}`, i);
  assert.equal(lru.size, 3);
});

test('a parsed request is made once per URL and frozen', () => {
  let parses = 0;
  const parse = () => {
    parses++;
    const { options } = parseRequestQuery('$select=Title,Author/Title&$expand=Author');
    return { sitePath: '/sites/x', apiPath: 'web', segments: [{ name: 'web', lname: 'web' }], query: options, requestUrl: new URL('http://h/sites/x/_api/web') };
  };
  const first = parsedRequest('http://h', 'GET', '/sites/x/_api/web?unit-test', parse);
  const again = parsedRequest('http://h', 'GET', '/sites/x/_api/web?unit-test', parse);
  assert.equal(first, again);
  assert.equal(parses, 1);
  assert.throws(() => { (first.query.select as string[][]).push(['Other']); }, TypeError);
  assert.throws(() => { (first.query.expand[0] as string[])[0] = 'Editor'; }, TypeError);
  parsedRequest('http://h', 'GET', '/sites/x/_api/web?another', parse);
  assert.equal(parses, 2);
  // A long URL (a filter of hundreds of terms) is parsed every time, never held.
  const long = `/sites/x/_api/web?${'x'.repeat(CACHED_URL_LENGTH)}`;
  parsedRequest('http://h', 'GET', long, parse);
  parsedRequest('http://h', 'GET', long, parse);
  assert.equal(parses, 4);
});

test('a plan holds while the store generation stays, is made again when it moves, and is not kept inside a transaction', async () => {
  let generation = 1;
  const store = { generation: () => generation };
  let made = 0;
  const make = async () => ++made;
  assert.equal(await plannedFor(store, 'k', make), 1);
  assert.equal(await plannedFor(store, 'k', make), 1);
  generation++;
  assert.equal(await plannedFor(store, 'k', make), 2);
  // Invalidated while being made: returned, not kept.
  const racing = async () => { generation++; return ++made; };
  assert.equal(await plannedFor(store, 'r', racing), 3);
  assert.equal(await plannedFor(store, 'r', make), 4);
  const longKey = 'k'.repeat(CACHED_URL_LENGTH + 1);
  assert.equal(await plannedFor(store, longKey, make), 5);
  assert.equal(await plannedFor(store, longKey, make), 6, 'a long key is not held');
  made -= 2;
  const inTransaction = { generation: () => NaN };
  assert.equal(await plannedFor(inTransaction, 'k', make), 5);
  assert.equal(await plannedFor(inTransaction, 'k', make), 6);
});

test('a value derived from a cached record holds for that record and key while the generation stays, and is not kept inside a transaction', () => {
  let generation = 1;
  const store = { generation: () => generation };
  let made = 0;
  const make = (record: { title: string }, suffix: string) => `${record.title}${suffix} #${++made}`;
  const field = { title: 'Shade' };
  assert.equal(derivedFrom(store, field, 'a', make, '!'), 'Shade! #1');
  assert.equal(derivedFrom(store, field, 'a', make, '!'), 'Shade! #1');
  assert.equal(derivedFrom(store, field, 'b', make, '?'), 'Shade? #2', 'another key (owner, origin) is its own');
  // The same content in another record object (the store's cache reloaded it) is made afresh.
  assert.equal(derivedFrom(store, { title: 'Shade' }, 'a', make, '!'), 'Shade! #3');
  generation++;
  assert.equal(derivedFrom(store, field, 'a', make, '!'), 'Shade! #4', 'made again once the generation moved');
  const inTransaction = { generation: () => NaN };
  assert.equal(derivedFrom(inTransaction, field, 'a', make, '!'), 'Shade! #5');
  assert.equal(derivedFrom(inTransaction, field, 'a', make, '!'), 'Shade! #6');
});

test('absolute URLs resolve as URL does, once per API root and path', () => {
  for (const [root, path] of [['http://h/sites/dev/_api/', '/sites/dev'], ['https://h:8443/_api/', '/'], ['http://h/sites/dev/_api/', '/sites/dev/Shared Documents/a b.txt']] as const) {
    assert.equal(cachedAbsoluteUrl(root, path), new URL(path, root).href.replace(/\/$/, ''));
    assert.equal(cachedAbsoluteUrl(root, path), cachedAbsoluteUrl(root, path));
  }
  assert.equal(cachedAbsoluteUrl('http://h/sites/dev/_api/', '/sites/dev'), 'http://h/sites/dev');
  assert.equal(cachedAbsoluteUrl('http://other/sites/dev/_api/', '/sites/dev'), 'http://other/sites/dev', 'another origin is another entry');
});

test('a kept route is found by origin and URL while the generation stays, the last one found too, and never after it moved', () => {
  let generation = 1;
  const store = { generation: () => generation };
  const url = "/sites/x/_api/web/lists/getbytitle('T')/items(1)";
  assert.equal(knownRoute(store, 'http://h', url), undefined);
  keepRoute(store, 'http://h', url, generation, 'route one');
  assert.equal(knownRoute(store, 'http://h', url), 'route one');
  assert.equal(knownRoute(store, 'http://h', `${url.slice(0, -1)})`), 'route one', 'the same URL in another string (the last one found)');
  assert.equal(knownRoute(store, 'http://other', url), undefined, 'another origin');
  generation++;
  assert.equal(knownRoute(store, 'http://h', url), undefined, 'the last one found is gone with its generation');
  keepRoute(store, 'http://h', url, generation - 1, 'made under the old metadata');
  assert.equal(knownRoute(store, 'http://h', url), undefined, 'not kept: made before the generation moved');
  keepRoute(store, 'http://h', url, generation, 'route two');
  assert.equal(knownRoute(store, 'http://h', url), 'route two');
  assert.equal(knownRoute({ generation: () => NaN }, 'http://h', url), undefined);
});
