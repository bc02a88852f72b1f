// The store's one read cache: entries are kept per key, a write drops only what it names, and
// a value loaded while its entry changed is never kept.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadThroughCache } from '../../src/store/cache.ts';

/** A loader that counts its calls and returns the current "database" value. */
function source(initial: Record<string, string>) {
  const data = { ...initial };
  let calls = 0;
  return {
    data,
    get calls() { return calls; },
    load: (key: string) => async () => { calls++; return data[key]; },
  };
}

describe('read-through cache', () => {
  it('loads once per key and serves the kept value after', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: '1', b: '2' });
    assert.equal(await cache.read('s', 'a', db.load('a')), '1');
    db.data.a = 'changed behind the cache';
    assert.equal(await cache.read('s', 'a', db.load('a')), '1');
    assert.equal(await cache.read('s', 'b', db.load('b')), '2');
    assert.equal(db.calls, 2);
  });

  it('keeps misses too (undefined is a value)', async () => {
    const cache = new ReadThroughCache();
    const db = source({});
    assert.equal(await cache.read('s', 'none', db.load('none')), undefined);
    assert.equal(await cache.read('s', 'none', db.load('none')), undefined);
    assert.equal(db.calls, 1);
  });

  it('invalidating a key drops that key only; the scope and other scopes keep theirs', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: '1', b: '2' });
    await cache.read('s', 'a', db.load('a'));
    await cache.read('s', 'b', db.load('b'));
    await cache.read('t', 'a', db.load('a'));
    db.data.a = 'A';
    db.data.b = 'B';
    cache.invalidate('s', 'a');
    assert.equal(await cache.read('s', 'a', db.load('a')), 'A');
    assert.equal(await cache.read('s', 'b', db.load('b')), '2');
    assert.equal(await cache.read('t', 'a', db.load('a')), '1');
  });

  it('invalidating a scope drops every key of it, nothing else', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: '1', b: '2' });
    await cache.read('s', 'a', db.load('a'));
    await cache.read('s', 'b', db.load('b'));
    await cache.read('t', 'b', db.load('b'));
    db.data.a = 'A';
    db.data.b = 'B';
    cache.invalidate('s');
    assert.equal(await cache.read('s', 'a', db.load('a')), 'A');
    assert.equal(await cache.read('s', 'b', db.load('b')), 'B');
    assert.equal(await cache.read('t', 'b', db.load('b')), '2');
  });

  it('a value loaded while its key was invalidated is returned but not kept', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: 'old' });
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const slow = cache.read('s', 'a', async () => { await gate; return 'old'; });
    db.data.a = 'new';
    cache.invalidate('s', 'a');
    release();
    assert.equal(await slow, 'old');
    assert.equal(await cache.read('s', 'a', db.load('a')), 'new');
  });

  it('a load that began before an invalidation of another key is kept', async () => {
    const cache = new ReadThroughCache();
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const slow = cache.read('s', 'a', async () => { await gate; return 'a1'; });
    cache.invalidate('s', 'b');
    release();
    await slow;
    const db = source({ a: 'a2' });
    assert.equal(await cache.read('s', 'a', db.load('a')), 'a1');
    assert.equal(db.calls, 0);
  });

  it('while a transaction holds an entry, reads go to the database and are not kept; settling drops it again', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: 'committed' });
    await cache.read('s', 'a', db.load('a'));
    cache.hold('s', 'a');
    // Another request reads during the transaction: the old row, which must not be cached.
    assert.equal(await cache.read('s', 'a', db.load('a')), 'committed');
    assert.equal(db.calls, 2);
    db.data.a = 'written';
    cache.settle('s', 'a');
    assert.equal(await cache.read('s', 'a', db.load('a')), 'written');
    assert.equal(await cache.read('s', 'a', db.load('a')), 'written');
    assert.equal(db.calls, 3);
  });

  it('a held scope keeps every key of it out of the cache until settled', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: '1' });
    cache.hold('s');
    await cache.read('s', 'a', db.load('a'));
    await cache.read('s', 'a', db.load('a'));
    assert.equal(db.calls, 2);
    cache.settle('s');
    await cache.read('s', 'a', db.load('a'));
    await cache.read('s', 'a', db.load('a'));
    assert.equal(db.calls, 3);
  });

  it('two transactions holding one entry: it stays out of the cache until both settle', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: '1' });
    cache.hold('s', 'a');
    cache.hold('s', 'a');
    cache.settle('s', 'a');
    await cache.read('s', 'a', db.load('a'));
    await cache.read('s', 'a', db.load('a'));
    assert.equal(db.calls, 2);
    cache.settle('s', 'a');
    await cache.read('s', 'a', db.load('a'));
    await cache.read('s', 'a', db.load('a'));
    assert.equal(db.calls, 3);
  });

  it('clear drops everything, and a load that spanned it is not kept', async () => {
    const cache = new ReadThroughCache();
    const db = source({ a: '1' });
    await cache.read('s', 'a', db.load('a'));
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const slow = cache.read('t', 'x', async () => { await gate; return 'stale'; });
    cache.clear();
    release();
    await slow;
    db.data.a = '2';
    assert.equal(await cache.read('s', 'a', db.load('a')), '2');
    assert.equal(await cache.read('t', 'x', async () => 'fresh'), 'fresh');
  });

  it('peek answers only what is kept: nothing before a read, the value after, nothing once invalidated or held', async () => {
    const cache = new ReadThroughCache();
    assert.equal(cache.peek('s', 'a'), undefined);
    await cache.read('s', 'a', async () => 'one');
    assert.equal(cache.peek('s', 'a'), 'one');
    cache.invalidate('s', 'a');
    assert.equal(cache.peek('s', 'a'), undefined);
    await cache.read('s', 'a', async () => 'two');
    cache.hold('s', 'a');
    assert.equal(cache.peek('s', 'a'), undefined);
    await cache.read('s', 'a', async () => 'three');
    assert.equal(cache.peek('s', 'a'), undefined, 'nothing is kept while held');
  });
});
