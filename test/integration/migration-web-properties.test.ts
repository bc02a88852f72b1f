// Migration 0043: a workspace made before web property bags were kept gains webs.properties,
// its webs' bags read as the derived vti_ entries alone, then take an entry (CSOM's
// AllProperties.SetFieldValue and Update) kept in the new column. The old shape is made for
// real: a workspace made by this spemu, then 0043's column dropped and 0043 struck from the
// applied migrations; a new server on it migrates. Both legs.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { minimalTenant, startTestServer, testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';

const TENANT = minimalTenant();
const CONTEXT = '<Property Id="1" ParentId="0" Name="Web" /><StaticProperty Id="0" TypeId="{3747adcd-a3c3-41b9-bfab-4a64dd2f1e0a}" Name="Current" />';
const request = (actions: string) => `<Request SchemaVersion="15.0.0.0" LibraryVersion="16.0.0.0" ApplicationName="test" xmlns="http://schemas.microsoft.com/sharepoint/clientquery/2009"><Actions>${actions}</Actions><ObjectPaths><Property Id="2" ParentId="1" Name="AllProperties" />${CONTEXT}</ObjectPaths></Request>`;

describe(`migration 0043: web property bags (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => (testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 }));

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0043-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    const made = await startTestServer({ db, seed: TENANT });
    await made.close();
    const connection = await open();
    try {
      await connection.db.schema.alterTable('webs').dropColumn('properties').execute();
      await connection.db.deleteFrom('kysely_migration').where('name', '=', '0043-web-properties').execute();
    } finally {
      await connection.db.destroy();
    }
  });
  after(async () => { await drop(); });

  it('the old web reads the derived entries, takes one of its own, and keeps it in the new column', async () => {
    const server = await startTestServer({ db, seed: TENANT });
    try {
      const processQuery = async (actions: string) => (await (await fetch(`${server.site('/sites/test')}/_vti_bin/client.svc/ProcessQuery`, {
        method: 'POST', body: request(actions), headers: { 'Content-Type': 'text/xml' },
      })).json()) as any[];
      const query = '<Query Id="9" ObjectPathId="2"><Query SelectAllProperties="true"><Properties /></Query></Query>';
      const before = (await processQuery(query))[2];
      assert.equal(before.vti_defaultlanguage, 'en-us');
      assert.equal(Object.hasOwn(before, 'kept'), false);
      const set = await processQuery('<Method Name="SetFieldValue" Id="3" ObjectPathId="2"><Parameters><Parameter Type="String">kept</Parameter><Parameter Type="String">yes</Parameter></Parameters></Method><Method Name="Update" Id="4" ObjectPathId="1" />');
      assert.equal(set[0].ErrorInfo, null, JSON.stringify(set));
      assert.equal((await processQuery(query))[2].kept, 'yes');
    } finally {
      await server.close();
    }
    const connection = await open();
    try {
      const rows = await connection.db.selectFrom('webs').select(['properties']).execute();
      assert.deepEqual(rows.map((r) => JSON.parse(r.properties)), [{ kept: 'yes' }]);
    } finally {
      await connection.db.destroy();
    }
  });
});
