// Migration 0038: a workspace made before web logos were kept gains webs.site_logo_url, its
// webs read with no logo (SharePoint's null) and then given one. The old shape is made for real:
// a workspace made by this spemu, then 0038's column dropped and 0038 struck from the applied
// migrations; a new server on it migrates. Both legs.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/sites/index.js';
import { SiteLogoAspect, SiteLogoType } from '@pnp/sp/sites/types.js';
import { minimalTenant, startTestServer, testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';

const TENANT = minimalTenant({ lists: [{ title: 'Tasks' }] });

describe(`migration 0038: web logos (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => (testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 }));

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0038-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    const made = await startTestServer({ db, seed: TENANT });
    await made.close();
    // Made old: no site_logo_url, 0038 not applied.
    const connection = await open();
    try {
      await connection.db.schema.alterTable('webs').dropColumn('site_logo_url').execute();
      await connection.db.deleteFrom('kysely_migration').where('name', '=', '0038-site-logo').execute();
    } finally {
      await connection.db.destroy();
    }
  });
  after(async () => { await drop(); });

  it('the old web has no logo, takes one, and keeps it in the new column', async () => {
    const server = await startTestServer({ db, seed: TENANT });
    try {
      const sp = pnpFor(server.site('/sites/test'));
      assert.equal((await sp.web.select('SiteLogoUrl')<{ SiteLogoUrl: string | null }>()).SiteLogoUrl, null);
      await sp.site.setSiteLogo({ relativeLogoUrl: '/sites/test/SiteAssets/old.png', aspect: SiteLogoAspect.Square, type: SiteLogoType.WebLogo });
      assert.equal((await sp.web.select('SiteLogoUrl')<{ SiteLogoUrl: string }>()).SiteLogoUrl, '/sites/test/SiteAssets/old.png');
    } finally {
      await server.close();
    }
    const connection = await open();
    try {
      const rows = await connection.db.selectFrom('webs').select(['site_logo_url']).execute();
      assert.deepEqual(rows.map((r) => r.site_logo_url), ['/sites/test/SiteAssets/old.png']);
    } finally {
      await connection.db.destroy();
    }
  });
});
