// Migration 0030 (issue #14): a workspace made before every root web got a Web Part Gallery
// answers `web.getCatalog(113)` once it is migrated. The old shape is made for real: a workspace
// seeded by this spemu, its gallery deleted through the store and 0030 struck from the applied
// migrations, as a workspace at 0029 is; a new server on it then migrates, and an unmodified
// @pnp/sp 4.x client reads the gallery. Both legs (a SQLite file, a PostgreSQL database).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import { minimalTenant, startTestServer, testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { WEB_PART_CATALOG_TEMPLATE } from '../../src/domain/templates.ts';
import { WEB_PART_GALLERY_KEY } from '../../src/domain/settings.ts';

const TENANT = minimalTenant({ lists: [{ title: 'Tasks', items: [{ Title: 'kept' }] }] });

describe(`migration 0030: the Web Part Gallery of workspaces made without one (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => {
    const connection = testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 });
    return Object.assign(new SqlStore(connection.db, testBackend()), { kysely: connection.db });
  };
  const galleries = async (store: SqlStore) => {
    const site = (await store.sites.byUrl('/sites/test'))!;
    return (await store.lists.inWeb(site.rootWebId)).filter((l) => l.baseTemplate === WEB_PART_CATALOG_TEMPLATE);
  };

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0030-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    // A workspace as this spemu makes it, then made old: no gallery, 0030 not applied.
    const made = await startTestServer({ db, seed: TENANT });
    await made.close();
    const store = await open();
    try {
      const [gallery] = await galleries(store);
      assert.ok(gallery, 'a new site has its gallery');
      await store.lists.delete(gallery);
      assert.equal((await galleries(store)).length, 0);
      await store.kysely.deleteFrom('kysely_migration').where('name', '=', '0030-web-part-gallery').execute();
    } finally {
      await store.close();
    }
  });
  after(async () => { await drop(); });

  it('after the migration getCatalog(113) answers with the gallery, made once, and the rest is as it was', async () => {
    const server = await startTestServer({ db, seed: TENANT });
    try {
      const sp = pnpFor(server.site('/sites/test'));
      const gallery = await (await sp.web.getCatalog(113)).select('Title', 'BaseTemplate', 'Hidden', 'RootFolder/ServerRelativeUrl').expand('RootFolder')();
      assert.deepEqual([gallery.Title, gallery.BaseTemplate, gallery.Hidden, (gallery as any).RootFolder.ServerRelativeUrl],
        ['Web Part Gallery', 113, true, '/sites/test/_catalogs/wp']);
      assert.deepEqual((await sp.web.lists.getByTitle('Tasks').items.select('Title')()).map((i) => i.Title), ['kept']);
    } finally {
      await server.close();
    }
    const store = await open();
    try {
      assert.equal((await galleries(store)).length, 1);
      assert.equal(await store.settings.get(WEB_PART_GALLERY_KEY), 'done', 'owed no more: a later start adds nothing');
    } finally {
      await store.close();
    }
    // A second start finds nothing owed: still one gallery.
    const again = await startTestServer({ db, seed: TENANT });
    await again.close();
    const reopened = await open();
    try {
      assert.equal((await galleries(reopened)).length, 1);
    } finally {
      await reopened.close();
    }
  });

  it('a new, empty workspace owes nothing: 0030 marks only workspaces that have sites', async () => {
    const fresh = testBackend() === 'sqlite' ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0030-')), 'spemu.db') : undefined;
    const database = fresh ? { db: fresh, drop: async () => {} } : await testDatabase();
    const server = await startTestServer({ db: database.db, seed: TENANT });
    await server.close();
    const connection = testBackend() === 'sqlite' ? openSqlite({ file: database.db }) : await openPostgres({ url: database.db, statementTimeoutMs: 0 });
    const store = new SqlStore(connection.db, testBackend());
    try {
      assert.equal(await store.settings.get(WEB_PART_GALLERY_KEY), undefined);
      assert.equal((await galleries(store)).length, 1);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
