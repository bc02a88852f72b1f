// SQLite's own durability, on real files: WAL with synchronous=FULL, and every acknowledged
// write surviving a SIGKILL of the writer. (PostgreSQL's durability is PostgreSQL's; the
// store's behaviour on both databases is tested in store.test.ts.)

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { openSqlite } from '../../src/store/sql/connect.ts';
import { migrateToLatest } from '../../src/store/sql/migrate.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { createListWithFields } from '../../src/services/lists.ts';
import type { FieldKind } from '../../src/domain/field-kinds.ts';
import type { Web } from '../../src/domain/model.ts';
import type { NewField } from '../../src/store/store.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WRITER = fileURLToPath(new URL('../fixtures/durability-writer.ts', import.meta.url));
const NOW = '2024-06-01T12:00:00Z';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFile(name = 'spemu.db'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-'));
  dirs.push(dir);
  return path.join(dir, name);
}

interface Opened { store: SqlStore; db: Kysely<any>; close(): Promise<void> }

async function open(file: string): Promise<Opened> {
  const connection = openSqlite({ file });
  const store = new SqlStore(connection.db, connection.flavour, { onSchemaChange: connection.clearStatementCache });
  await migrateToLatest(connection.db, connection.flavour);
  return { store, db: connection.db, close: () => store.close() };
}

async function newWeb(store: SqlStore): Promise<Web> {
  return (await store.sites.create({ url: '/sites/test', title: 'Test', description: '', now: NOW })).web;
}

const newField = (internalName: string, kind: FieldKind, extra: Partial<NewField> = {}): NewField => ({
  internalName, title: internalName, kind, required: false, indexed: false, hidden: false, options: {}, ...extra,
});

async function rows<T = Record<string, unknown>>(db: Kysely<any>, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

const rowCount = async (db: Kysely<any>, table: string) =>
  Number((await rows<{ n: number }>(db, sql`select count(*) as n from ${sql.table(table)}`))[0]!.n);
const listRow = async (db: Kysely<any>, rowId: number) =>
  (await rows<{ next_item_id: number }>(db, sql`select next_item_id from lists where row_id = ${rowId}`))[0];

describe('durability', () => {
  test('the database runs in WAL mode with synchronous=FULL', async () => {
    const opened = await open(tempFile());
    try {
      assert.equal((await rows<{ journal_mode: string }>(opened.db, sql`pragma journal_mode`))[0]!.journal_mode, 'wal');
      assert.equal(Number((await rows<{ synchronous: number }>(opened.db, sql`pragma synchronous`))[0]!.synchronous), 2);
    } finally {
      await opened.close();
    }
  });

  test('every acknowledged write survives a SIGKILL of the writer', { timeout: 60_000 }, async () => {
    const file = tempFile();
    const setup = await open(file);
    const web = await newWeb(setup.store);
    const list = await createListWithFields(setup.store, web, { title: 'Durable', description: '', baseTemplate: 100 }, NOW);
    await setup.store.fields.add(list, newField('Amount', 'Number'));
    await setup.close();

    const ACKS = 40;
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, 'Durable'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += String(d); });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    const acks: Array<{ id: number; n: number }> = [];
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        const m = /^ack (\d+) (\d+)$/.exec(line);
        assert.ok(m, `unexpected output: ${line}`);
        acks.push({ id: Number(m[1]), n: Number(m[2]) });
        if (acks.length === ACKS) child.kill('SIGKILL');
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const { signal, code } = await exited;
    assert.equal(acks.length >= ACKS, true, `writer stopped early (code ${code}): ${stderr}`);
    assert.equal(signal, 'SIGKILL', stderr);

    const reopened = await open(file);
    try {
      const again = (await reopened.store.lists.byRowId(list.rowId))!;
      const fields = await reopened.store.fields.of(again);
      for (const { id, n } of acks) {
        const item = await reopened.store.items.get(again, fields, id);
        assert.ok(item, `acknowledged item ${id} is gone`);
        assert.equal(item.values.Title, `durable-${n}`);
        assert.equal(item.values.Amount, n * 1.5);
      }
      // Whatever else made it to disk is whole: the counters agree with the rows.
      const count = await rowCount(reopened.db, again.tableName);
      assert.ok(count >= acks.length);
      assert.equal(again.itemCount, count);
      const max = Number((await rows<{ m: number }>(reopened.db, sql`select max(id) as m from ${sql.table(again.tableName)}`))[0]!.m);
      assert.equal((await listRow(reopened.db, again.rowId))!.next_item_id, max + 1);
      assert.deepEqual(await rows(reopened.db, sql`pragma integrity_check`), [{ integrity_check: 'ok' }]);
    } finally {
      await reopened.close();
    }
  });
});
