// Migration 0031: attachments made before they had a GUID and a version get both, so their
// `$value` carries an ETag and If-Match works on them. The old shape is made for real: a workspace
// with attachments added by this spemu, then the two columns dropped and 0031 struck from the
// applied migrations, as a workspace at 0030 is; a new server on it migrates. Both legs.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/attachments/index.js';
import { minimalTenant, startTestServer, testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';

const TENANT = minimalTenant({ lists: [{ title: 'Tasks', items: [{ Title: 'with files' }] }] });

describe(`migration 0031: attachments get a GUID and a version (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => (testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 }));

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0031-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    const made = await startTestServer({ db, seed: TENANT });
    try {
      const item = pnpFor(made.site('/sites/test')).web.lists.getByTitle('Tasks').items.getById(1);
      await item.attachmentFiles.add('a.txt', 'A');
      await item.attachmentFiles.add('b.txt', 'B');
    } finally {
      await made.close();
    }
    // Made old: the attachments as 0012 left them, 0031 not applied.
    const connection = await open();
    try {
      await sql`alter table attachments drop column unique_id`.execute(connection.db);
      await sql`alter table attachments drop column version`.execute(connection.db);
      await connection.db.deleteFrom('kysely_migration').where('name', '=', '0031-attachment-versions').execute();
    } finally {
      await connection.db.destroy();
    }
  });
  after(async () => { await drop(); });

  it('each old attachment answers "{GUID},1", its own GUID; a save with that etag writes and makes it 2', async () => {
    const server = await startTestServer({ db, seed: TENANT });
    try {
      const value = (name: string) => `${server.site('/sites/test')}/_api/web/lists/getbytitle('Tasks')/items(1)/AttachmentFiles('${name}')/$value`;
      const read = async (name: string) => {
        const r = await fetch(value(name));
        assert.equal(r.status, 200);
        return { etag: r.headers.get('etag')!, text: await r.text() };
      };
      const a = await read('a.txt'), b = await read('b.txt');
      assert.match(a.etag, /^"\{[0-9A-F-]{36}\},1"$/);
      assert.match(b.etag, /^"\{[0-9A-F-]{36}\},1"$/);
      assert.notEqual(a.etag, b.etag, 'a GUID each');
      assert.deepEqual([a.text, b.text], ['A', 'B'], 'the content kept');

      const stale = await fetch(value('a.txt'), { method: 'POST', body: 'x', headers: { 'X-HTTP-Method': 'PUT', 'If-Match': a.etag.replace(',1"', ',2"') } });
      assert.equal(stale.status, 412);
      const saved = await fetch(value('a.txt'), { method: 'POST', body: 'A2', headers: { 'X-HTTP-Method': 'PUT', 'If-Match': a.etag } });
      assert.equal(saved.status, 204);
      assert.deepEqual(await read('a.txt'), { etag: a.etag.replace(',1"', ',2"'), text: 'A2' });
    } finally {
      await server.close();
    }
  });
});
