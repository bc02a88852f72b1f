// Rows kept in memory by SQLite's hot point read (store/sql/kept-rows.ts), through the real
// connection (connect.ts) on a real file: a kept row is answered without a statement, and is
// dropped by every statement that may write (committed or rolled back), by DDL, and when another
// process's commit is reported; reads inside a transaction are never kept. The cross-process
// case through two servers is in test/integration/instance-caches.test.ts.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '../../src/store/sql/connect.ts';
import { BUDGET_BYTES, KeptRows, ROW_BYTES } from '../../src/store/sql/kept-rows.ts';

const folder = mkdtempSync(join(tmpdir(), 'spemu-kept-rows-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const READ = 'select "id", "title" from "things" where "id" = ?';

async function openWithRows(name: string) {
  const file = join(folder, name);
  const connection = openSqlite({ file });
  await sql`create table things (id integer primary key, title text)`.execute(connection.db);
  await connection.db.insertInto('things').values([{ id: 1, title: 'one' }, { id: 2, title: 'two' }]).execute();
  return { file, connection, read: (id: number) => connection.direct.rowNow!(READ, [id]) };
}

describe('rows kept by the SQLite hot point read', () => {
  it('answers a repeated read from memory (the same row object), "no row" as well', async () => {
    const { connection, read } = await openWithRows('repeat.db');
    const first = read(1);
    assert.deepEqual(first, { id: 1, title: 'one' });
    assert.equal(read(1), first);
    assert.equal(read(3), null);
    assert.equal(read(3), null);
    await connection.db.destroy();
  });

  it('drops every kept row when a statement that may write runs, whether it changed that row or not', async () => {
    const { connection, read } = await openWithRows('write.db');
    const one = read(1);
    read(3);
    await connection.db.updateTable('things').set({ title: 'uno' }).where('id', '=', 1).execute();
    assert.deepEqual(read(1), { id: 1, title: 'uno' });
    const two = read(2);
    await connection.db.insertInto('things').values({ id: 3, title: 'three' }).execute();
    assert.deepEqual(read(3), { id: 3, title: 'three' });
    assert.notEqual(read(2), two, 'a write elsewhere in the table drops row 2 too');
    assert.notEqual(read(1), one);
    await sql`alter table things add column extra text`.execute(connection.db);
    connection.clearStatementCache();
    assert.deepEqual(read(1), { id: 1, title: 'uno' });
    await connection.db.destroy();
  });

  it('keeps nothing read inside a transaction, and a rolled-back write leaves the committed row', async () => {
    const { connection, read } = await openWithRows('rollback.db');
    assert.deepEqual(read(1), { id: 1, title: 'one' });
    await assert.rejects(connection.db.transaction().execute(async (trx) => {
      await trx.updateTable('things').set({ title: 'never' }).where('id', '=', 1).execute();
      // The one connection is inside the transaction: the hot read refuses (the caller queues).
      assert.equal(read(1), undefined);
      throw new Error('roll back');
    }), /roll back/);
    assert.deepEqual(read(1), { id: 1, title: 'one' });
    await connection.db.destroy();
  });

  it('another connection\'s commit is seen once reported (externalChange), as SqlStore.sync reports it', async () => {
    const { file, connection, read } = await openWithRows('two.db');
    const other = openSqlite({ file });
    assert.deepEqual(read(2), { id: 2, title: 'two' });
    await other.db.updateTable('things').set({ title: 'deux' }).where('id', '=', 2).execute();
    // Unreported, the row stays as kept: exclusive use of the file is what a lone process assumes.
    assert.deepEqual(read(2), { id: 2, title: 'two' });
    connection.direct.externalChange!();
    assert.deepEqual(read(2), { id: 2, title: 'deux' });
    await other.db.destroy();
    await connection.db.destroy();
  });
});

describe('KeptRows', () => {
  it('holds at most its byte budget, dropping the oldest first; "no row" is kept too; drop empties it', () => {
    const kept = new KeptRows();
    // Rows of ~32 KiB each: the budget holds about BUDGET_BYTES / 32 KiB of them.
    const text = 'x'.repeat(16 * 1024);
    const fit = Math.floor(BUDGET_BYTES / (32 * 1024));
    const count = fit + 50;
    for (let id = 0; id < count; id++) kept.keep('t', id, { id, text });
    assert.equal(kept.get('t', 0), undefined);
    assert.equal(kept.get('t', 49), undefined);
    assert.deepEqual(kept.get('t', count - 1), { id: count - 1, text });
    assert.deepEqual(kept.get('t', count - fit + 10), { id: count - fit + 10, text });
    kept.keep('t', count - 1, null);
    assert.equal(kept.get('t', count - 1), null);
    kept.drop();
    assert.equal(kept.get('t', count - 1), undefined);
  });

  it('does not keep a row heavier than ROW_BYTES (a long Note, a page\'s canvas): it is read each time', () => {
    const kept = new KeptRows();
    kept.keep('t', 1, { id: 1, canvas: 'y'.repeat(ROW_BYTES) });
    assert.equal(kept.get('t', 1), undefined);
    kept.keep('t', 2, { id: 2, canvas: 'y'.repeat(1000) });
    assert.deepEqual(kept.get('t', 2), { id: 2, canvas: 'y'.repeat(1000) });
  });
});
