// Migration 0036: a workspace made before comments existed gains the comment, like and rating
// tables and its lists a DisableCommenting of false, with their items kept. The old shape is made
// for real: a workspace made by this spemu, then 0036's tables and column dropped and 0036 struck
// from the applied migrations; a new server on it migrates. Both legs.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
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

describe(`migration 0036: item comments and ratings (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => (testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 }));

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0036-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    const made = await startTestServer({ db, seed: TENANT });
    await made.close();
    // Made old: no comment tables, no list column, 0036 not applied.
    const connection = await open();
    try {
      for (const table of ['item_comment_likes', 'item_comments', 'item_ratings']) await connection.db.schema.dropTable(table).execute();
      await sql`alter table lists drop column disable_commenting`.execute(connection.db);
      await connection.db.deleteFrom('kysely_migration').where('name', '=', '0036-comments').execute();
    } finally {
      await connection.db.destroy();
    }
  });
  after(async () => { await drop(); });

  it('the old list takes comments and ratings, DisableCommenting false; its item kept', async () => {
    const server = await startTestServer({ db, seed: TENANT });
    try {
      const list = pnpFor(server.site('/sites/test')).web.lists.getByTitle('Tasks');
      assert.equal((await list.select('DisableCommenting')()).DisableCommenting, false);
      assert.equal((await list.items.getById(1)()).Title, 'old item');
      const added = await list.items.getById(1).comments.add('on an old item');
      assert.equal(added.id, '1');
      assert.deepEqual((await list.items.getById(1).comments()).map((c) => c.text), ['on an old item']);
      assert.equal(await list.items.getById(1).rate(3), 3);
    } finally {
      await server.close();
    }
  });
});
