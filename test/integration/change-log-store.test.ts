// The change log below the Store interface, on the leg's database (issue #10): a change is
// written in the same transaction as its write (a rolled-back write leaves no change row, and a
// change row that cannot be written undoes the write), numbers grow per site collection, the
// purge removes what retention no longer keeps, and every read of the log walks an index —
// (site, number), (web, number) or (list, number) — never the table.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import { createListWithFields } from '../../src/services/lists.ts';
import { changeQuerySql } from '../../src/store/sql/changes.ts';
import type { ChangeQuery } from '../../src/store/changes.ts';
import type { Field, List, Web } from '../../src/domain/model.ts';
import { houseKeep } from '../../src/store/housekeeping.ts';
import { openStoreBackend, plan, refuse, rows, scansTable, sorts, usesIndex, type StoreBackend } from '../helpers/store-backend.ts';

const NOW = '2024-06-01T12:00:00Z';

/** The very query the store runs, its parameters bound again, for `explain`. */
function asRaw(compiled: CompiledQuery): RawBuilder<unknown> {
  const parts = compiled.sql.split(/\?|\$\d+/);
  return sql.join(parts.map((part, i) => (i < compiled.parameters.length ? sql`${sql.raw(part)}${compiled.parameters[i]}` : sql.raw(part))), sql``);
}

describe('the change log in the store', () => {
  let opened: StoreBackend;
  let web: Web;
  let siteId: string;
  let list: List;
  let fields: Field[];
  before(async () => {
    opened = await openStoreBackend();
    const made = await opened.store.sites.create({ url: '/sites/changes', title: 'Changes', description: '', now: NOW });
    web = made.web;
    siteId = made.site.id;
    list = await createListWithFields(opened.store, web, { title: 'Log', description: '', baseTemplate: 100 }, NOW);
    fields = await opened.store.fields.of(list);
  });
  after(async () => { await opened.close(); });

  const count = async () => Number((await rows<{ n: number }>(opened.db, sql`select count(*) as n from change_log where site_id = ${siteId}`))[0]!.n);
  const write = (title: string) => ({ values: { Title: title }, actorId: 1, now: NOW });
  const itemQuery = (extra: Partial<ChangeQuery> = {}): ChangeQuery => ({
    siteId, scope: { kind: 'list', listId: list.id }, kinds: ['item'], types: [1, 2, 3], limit: 100, latestFirst: false, ...extra,
  });

  test('each write records its change; numbers grow by one per change in the site collection', async () => {
    const start = await opened.store.changes.latest(siteId);
    const item = await opened.store.items.create(list, fields, write('a'));
    await opened.store.items.update(list, fields, item.id, write('b'), null);
    await opened.store.items.delete(list, fields, item.id, null, NOW);
    assert.equal(await opened.store.changes.latest(siteId), start + 3);
    const changes = await opened.store.changes.query(itemQuery({ after: { number: start } }));
    assert.deepEqual(changes.map((c) => [c.number, c.type, c.itemId, c.uniqueId]),
      [[start + 1, 1, item.id, item.guid], [start + 2, 2, item.id, item.guid], [start + 3, 3, item.id, item.guid]]);
  });

  test('writers racing in one site collection take distinct numbers with no gap', async () => {
    const start = await opened.store.changes.latest(siteId);
    const made = await Promise.all(Array.from({ length: 20 }, (_, n) => opened.store.items.create(list, fields, write(`race ${n}`))));
    const changes = await opened.store.changes.query(itemQuery({ after: { number: start }, types: [1] }));
    assert.deepEqual(changes.map((c) => c.number), Array.from({ length: 20 }, (_, n) => start + 1 + n));
    assert.deepEqual(new Set(changes.map((c) => c.itemId)), new Set(made.map((i) => i.id)));
  });

  test('a unit of work that rolls back leaves no change row', async () => {
    const before = await count();
    const latest = await opened.store.changes.latest(siteId);
    await assert.rejects(opened.store.transaction(async (tx) => {
      await tx.items.create(list, fields, write('gone'));
      await tx.lists.update(list, { description: 'gone too' }, NOW);
      throw new Error('boom');
    }), /boom/);
    assert.equal(await count(), before);
    assert.equal(await opened.store.changes.latest(siteId), latest, 'no change number was taken either');
  });

  test('a change row that cannot be written undoes the write itself', async () => {
    const items = (await opened.store.items.query(list, fields, { orderBy: [], top: 1000, lookups: new Map() })).items.length;
    const before = await count();
    const drop = await refuse(opened, 'no_changes', { event: 'insert', table: 'change_log', when: `new.object_kind = 'item'`, message: 'change log refused' });
    try {
      await assert.rejects(opened.store.items.create(list, fields, write('not logged')), /change log refused/);
    } finally {
      await drop();
    }
    assert.equal((await opened.store.items.query(list, fields, { orderBy: [], top: 1000, lookups: new Map() })).items.length, items);
    assert.equal(await count(), before);
  });

  test('housekeeping purges changes older than the retention', async () => {
    await opened.store.items.create(list, fields, write('old'));
    assert.ok(await count() > 0);
    const future = new Date(Date.now() + 61 * 86_400_000);
    const kept = await houseKeep(opened.store, new Date(Date.now() + 59 * 86_400_000));
    assert.equal(kept.changes, 0);
    assert.ok(await count() > 0);
    const purged = await houseKeep(opened.store, future);
    assert.ok(purged.changes > 0);
    assert.equal(await count(), 0);
    assert.ok(await opened.store.changes.latest(siteId) > 0, 'numbers never go back after a purge');
  });

  test('reading changes walks the scope\'s index, in order, never the table', async () => {
    for (let n = 0; n < 50; n++) await opened.store.items.create(list, fields, write(`p${n}`));
    const cases: Array<[ChangeQuery, string]> = [
      [itemQuery({ scope: { kind: 'site' }, after: { number: 10 } }), opened.flavour === 'sqlite' ? 'sqlite_autoindex_change_log_1' : 'change_log_pk'],
      [itemQuery({ scope: { kind: 'web', webId: web.id }, after: { number: 10 } }), 'change_log_web'],
      [itemQuery({ after: { number: 10 }, upTo: { number: 40 } }), 'change_log_list'],
      [itemQuery({ latestFirst: true }), 'change_log_list'],
    ];
    for (const [query, index] of cases) {
      const text = await plan(opened, asRaw(changeQuerySql(opened.db, query).compile()));
      // (PostgreSQL walks an index backwards for LatestFirst: `Index Scan Backward using …`.)
      assert.ok(usesIndex(opened, text.replace('Scan Backward using', 'Scan using'), index), `${query.scope.kind}: ${text}`);
      assert.ok(!scansTable(opened, text), text);
      assert.ok(!sorts(opened, text), `the index gives the order: ${text}`);
    }
  });
});
