// Units of work and the keyed cache on the leg's real database: a write and the rows that
// belong to it commit together or not at all, and a write drops from the cache only what it
// changed. Rows are changed behind the store's back (plain SQL) to see what it still serves
// from memory.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createListWithFields } from '../../src/services/lists.ts';
import type { List, Web } from '../../src/domain/model.ts';
import { openStoreBackend, rows, type StoreBackend } from '../helpers/store-backend.ts';

const NOW = '2024-06-01T12:00:00Z';
let b: StoreBackend;
let web: Web;
let tasks: List;
let notes: List;

const titleOfField = async (list: List, name: string) => (await b.store.fields.of(list)).find((f) => f.internalName === name)?.title;
/** Renames a field in the database only: the store is not told. */
const renameBehindTheStore = (list: List, name: string, title: string) =>
  sql`update fields set title = ${title} where list_row_id = ${list.rowId} and internal_name = ${name}`.execute(b.db);

before(async () => {
  b = await openStoreBackend();
  web = (await b.store.sites.create({ url: '/sites/uow', title: 'UoW', description: '', now: NOW })).web;
  tasks = await createListWithFields(b.store, web, { title: 'Tasks', description: '', baseTemplate: 100, enableVersioning: true }, NOW);
  notes = await createListWithFields(b.store, web, { title: 'Notes', description: '', baseTemplate: 100 }, NOW);
});
after(() => b.close());

describe('the keyed cache under real writes', () => {
  test('a field added to one list drops that list\'s fields and its web\'s lists, not another list\'s fields', async () => {
    assert.equal(await titleOfField(tasks, 'Title'), 'Title');
    assert.equal(await titleOfField(notes, 'Title'), 'Title');
    await renameBehindTheStore(notes, 'Title', 'renamed behind the store');
    await renameBehindTheStore(tasks, 'Title', 'also renamed');
    await b.store.fields.add(tasks, { internalName: 'Extra', title: 'Extra', kind: 'Text', required: false, indexed: false, hidden: false, options: {} });
    // Tasks' entry was dropped: the fresh read sees the new field and the renamed title.
    assert.equal(await titleOfField(tasks, 'Extra'), 'Extra');
    assert.equal(await titleOfField(tasks, 'Title'), 'also renamed');
    // Notes' entry was not touched: still what was cached before.
    assert.equal(await titleOfField(notes, 'Title'), 'Title');
    // The list's version (its etag) moved, and the web's list entry was dropped with it.
    const fresh = await b.store.lists.byTitle(web.id, 'Tasks');
    assert.ok(fresh && fresh.version > tasks.version);
  });

  test('an item write drops its web\'s list records (ItemCount), not the lists\' fields', async () => {
    const before = (await b.store.lists.byTitle(web.id, 'Notes'))!;
    const fields = await b.store.fields.of(notes);
    await b.store.items.create(notes, fields, { values: { Title: 'one' }, actorId: 1, now: NOW });
    assert.equal((await b.store.lists.byTitle(web.id, 'Notes'))!.itemCount, before.itemCount + 1);
    assert.equal(await titleOfField(notes, 'Title'), 'Title');
  });
});

describe('a unit of work', () => {
  test('an update and the past version it makes commit together, or neither does', async () => {
    const fields = await b.store.fields.of(tasks);
    const item = await b.store.items.create(tasks, fields, { values: { Title: 'v1' }, actorId: 1, now: NOW });
    await assert.rejects(b.store.transaction(async (tx) => {
      await tx.items.update(tasks, fields, item.id, { values: { Title: 'v2' }, actorId: 1, now: NOW }, null);
      assert.equal((await tx.versions.of(tasks, item.id)).length, 1, 'inside, the past version exists');
      throw new Error('a later step fails');
    }), /a later step fails/);
    assert.equal((await b.store.items.get(tasks, fields, item.id))!.values.Title, 'v1');
    assert.deepEqual(await b.store.versions.of(tasks, item.id), []);
    await b.store.items.update(tasks, fields, item.id, { values: { Title: 'v2' }, actorId: 1, now: NOW }, null);
    const versions = await b.store.versions.of(tasks, item.id);
    assert.deepEqual(versions.map((v) => v.values.Title), ['v1']);
    // Stored in the numbered snapshot format, not as the in-memory record.
    const [row] = await rows<{ data: string }>(b.db, sql`select data from item_versions where list_row_id = ${tasks.rowId} and item_id = ${item.id}`);
    assert.equal(JSON.parse(row!.data).format, 3);
  });

  test('runs its after-commit work once committed, never after a rollback', async () => {
    const ran: string[] = [];
    await b.store.transaction(async (_tx, work) => { work.afterCommit(() => ran.push('committed')); });
    await assert.rejects(b.store.transaction(async (_tx, work) => {
      work.afterCommit(() => ran.push('rolled back'));
      throw new Error('no');
    }));
    assert.deepEqual(ran, ['committed']);
  });

  test('a metadata write that rolls back leaves no trace, in the database or in the cache', async () => {
    const fields = await b.store.fields.of(notes);
    await assert.rejects(b.store.transaction(async (tx) => {
      await tx.fields.add(notes, { internalName: 'Ghost', title: 'Ghost', kind: 'Text', required: false, indexed: false, hidden: false, options: {} });
      await tx.lists.update(notes, { title: 'Renamed' }, NOW);
      throw new Error('abandon');
    }));
    assert.equal(await titleOfField(notes, 'Ghost'), undefined);
    assert.equal((await b.store.fields.of(notes)).length, fields.length);
    assert.equal((await b.store.lists.byTitle(web.id, 'Renamed')), undefined);
    assert.ok(await b.store.lists.byTitle(web.id, 'Notes'));
  });

  test('nested transactions join the open one', async () => {
    await assert.rejects(b.store.transaction(async (outer) => {
      await outer.transaction(async (inner) => {
        await inner.settings.set('uow-test', 'inner');
      });
      throw new Error('outer fails');
    }));
    assert.equal(await b.store.settings.get('uow-test'), undefined);
  });
});

describe('instances sharing one database', () => {
  test('a metadata write on one drops, on the other, just the entries it changed; pruned history drops everything', async () => {
    const { SqlStore } = await import('../../src/store/sql/sql-store.ts');
    const a = new SqlStore(b.db, b.flavour, { shared: true });
    const other = new SqlStore(b.db, b.flavour, { shared: true });
    await a.sync();
    const aTasks = (await a.lists.byTitle(web.id, 'Tasks'))!;
    const aNotes = (await a.lists.byTitle(web.id, 'Notes'))!;
    const titleOn = async (list: List) => (await a.fields.of(list)).find((f) => f.internalName === 'Title')!.title;
    const cachedNotesTitle = await titleOn(aNotes);
    await titleOn(aTasks);
    await renameBehindTheStore(notes, 'Title', 'Notes title, changed behind both');

    await other.fields.add(tasks, { internalName: 'FromOther', title: 'From the other', kind: 'Text', required: false, indexed: false, hidden: false, options: {} });
    await a.sync();
    assert.ok((await a.fields.of(aTasks)).some((f) => f.internalName === 'FromOther'), 'the changed entry is read again');
    assert.equal(await titleOn(aNotes), cachedNotesTitle, 'an entry no write named stays cached');

    // History this instance has not read was pruned: it cannot know what changed, so it drops all.
    await other.settings.set('uow-shared', '1');
    await sql`delete from cache_changes`.execute(b.db);
    await a.sync();
    assert.equal(await titleOn(aNotes), 'Notes title, changed behind both');
    assert.equal(await a.settings.get('uow-shared'), '1');
  });
});

/**
 * Another process's write of a setting: on SQLite a thread of its own with its own connection
 * (better-sqlite3 waits for a lock synchronously, which in this thread would stop the very
 * transaction it waits for); on PostgreSQL another connection of the pool.
 */
async function writeFromElsewhere(key: string, value: string): Promise<void> {
  if (b.flavour === 'postgres') {
    const other = await b.reopen();
    try { await other.store.settings.set(key, value); } finally { await other.close(); }
    return;
  }
  const { Worker } = await import('node:worker_threads');
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require('better-sqlite3');
    const db = new Database(workerData.file);
    db.pragma('busy_timeout = 5000');
    db.prepare('insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value').run(workerData.key, workerData.value);
    db.close();
    parentPort.postMessage('done');`;
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { file: b.location, key, value } });
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
}

describe('two connections writing to one database (as --workers processes do)', () => {
  test('a unit of work that reads, waits and then writes is not refused because another wrote meanwhile', async () => {
    // On SQLite a deferred transaction that read before another connection committed gets
    // SQLITE_BUSY at its first write, whatever busy_timeout says; each unit of work takes the
    // write lock when it begins, so the other writer waits its turn instead.
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const results = await Promise.allSettled([
      b.store.transaction(async (tx) => {
        await tx.settings.get('uow-probe');
        await pause(300);
        await tx.settings.set('uow-first', 'written after a pause');
      }),
      (async () => { await pause(50); await writeFromElsewhere('uow-second', 'written meanwhile'); })(),
    ]);
    assert.deepEqual(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status)), ['fulfilled', 'fulfilled']);
    assert.deepEqual([await b.store.settings.get('uow-first'), await b.store.settings.get('uow-second')], ['written after a pause', 'written meanwhile']);
  });
});
