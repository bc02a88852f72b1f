// A GET changes nothing. Reading a site group's users once gave each member without a row
// in the User Information List a new one; now it lists the rows there are. The row of a
// member is removed behind the server's back (through the store, on the same database), then
// the group's users are read: no row comes back into being.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, testDatabase, type TestServer } from '../helpers/server.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { userInfoList, findSiteUser, userLogin } from '../../src/identity/site-users.ts';
import { testBackend } from '../helpers/postgres.ts';

const MEMBER = 'bob@contoso.onmicrosoft.com';
let server: TestServer;
let store: SqlStore;
let dropDatabase: () => Promise<void> = async () => {};

before(async () => {
  let db: string;
  if (testBackend() === 'sqlite') {
    db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-get-')), 'spemu.db');
  } else {
    ({ db, drop: dropDatabase } = await testDatabase());
  }
  server = await startTestServer({ db });
  const connection = testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 });
  store = new SqlStore(connection.db, testBackend());
});
after(async () => {
  await server.close();
  await store.close();
  await dropDatabase();
});

const get = async (url: string) => {
  const response = await fetch(`${server.site()}/_api/${url}`, { headers: { Accept: 'application/json;odata=nometadata' } });
  assert.equal(response.status, 200, url);
  return (await response.json()) as { value: Array<{ Id: number; LoginName: string }> };
};

describe('GET writes nothing', () => {
  test("a site group's users: a member without a row is not given one", async () => {
    const site = (await store.sites.byUrl('/sites/dev'))!;
    const { list, fields } = await userInfoList(store, site);
    const row = (await findSiteUser(store, site, userLogin(MEMBER)))!;
    assert.ok(row, 'the tenant load gave the member a row');
    const before = (await get('web/sitegroups(5)/users')).value.map((u) => u.LoginName);
    assert.ok(before.includes(userLogin(MEMBER)));

    assert.equal(await store.items.delete(list, fields, row.id, null, '2024-01-01T00:00:00Z'), 'deleted');
    const countBefore = (await store.lists.byRowId(list.rowId))!.itemCount;
    const users = (await get('web/sitegroups(5)/users')).value.map((u) => u.LoginName);
    assert.equal(users.includes(userLogin(MEMBER)), false);
    assert.deepEqual(users, before.filter((login) => login !== userLogin(MEMBER)), 'the others, in the same order');
    assert.equal((await store.lists.byRowId(list.rowId))!.itemCount, countBefore, 'no row was added');
    assert.equal(await findSiteUser(store, site, userLogin(MEMBER)), undefined);
  });
});
