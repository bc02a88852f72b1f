// Migration 0037: a workspace made before item likes existed gains the item_likes table, its
// items kept and likeable. The old shape is made for real: a workspace made by this spemu, then
// 0037's table dropped and 0037 struck from the applied migrations; a new server on it migrates.
// Then likes go with their item and list, read from the table itself. Both legs.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/comments/item.js';
import { minimalTenant, startTestServer, testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-comment-types.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';

const TENANT = minimalTenant({ lists: [{ title: 'Tasks', items: [{ Title: 'old item' }] }] });

describe(`migration 0037: item likes (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => (testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 }));

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0037-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    const made = await startTestServer({ db, seed: TENANT });
    await made.close();
    // Made old: no item_likes, 0037 not applied.
    const connection = await open();
    try {
      await connection.db.schema.dropTable('item_likes').execute();
      await connection.db.deleteFrom('kysely_migration').where('name', '=', '0037-item-likes').execute();
    } finally {
      await connection.db.destroy();
    }
  });
  after(async () => { await drop(); });

  it('the old item is liked, listed in likedBy, unliked; kept', async () => {
    const server = await startTestServer({ db, seed: TENANT });
    try {
      const item = pnpFor(server.site('/sites/test')).web.lists.getByTitle('Tasks').items.getById(1);
      assert.equal((await item()).Title, 'old item');
      assert.deepEqual(await item.getLikedBy(), []);
      await item.like();
      assert.equal((await item.getLikedBy()).length, 1);
      await item.unlike();
      assert.deepEqual(await item.getLikedBy(), []);
    } finally {
      await server.close();
    }
  });

  it('likes go with their item and with their list: no row of theirs is left in item_likes', async () => {
    const rows = async () => {
      const connection = await open();
      try {
        return (await connection.db.selectFrom('item_likes').select(['item_id']).orderBy('item_id').execute()).map((r) => Number(r.item_id));
      } finally {
        await connection.db.destroy();
      }
    };
    const run = async (fn: (sp: ReturnType<typeof pnpFor>) => Promise<void>) => {
      const server = await startTestServer({ db, seed: TENANT });
      try { await fn(pnpFor(server.site('/sites/test'))); } finally { await server.close(); }
    };
    await run(async (sp) => {
      const list = sp.web.lists.getByTitle('Tasks');
      const { Id: second } = await list.items.add({ Title: 'second' });
      await list.items.getById(1).like();
      await list.items.getById(second).like();
    });
    assert.equal((await rows()).length, 2);
    await run(async (sp) => { await sp.web.lists.getByTitle('Tasks').items.getById(1).delete(); });
    assert.deepEqual((await rows()).filter((id) => id === 1), [], 'the deleted item\'s like is gone');
    assert.equal((await rows()).length, 1, 'the other item\'s like stays');
    await run(async (sp) => { await sp.web.lists.getByTitle('Tasks').delete(); });
    assert.deepEqual(await rows(), [], 'the deleted list\'s likes are gone');
  });
});
