// An Entra token whose audience is one of the tenant's host names (`https://fabrikam.sharepoint.com`,
// as a client asks Entra for `https://<tenant>.sharepoint.com/.default`) holds only while the tenant
// names that host. Another instance started on the same database with a tenant file that drops
// the host name changes the tenant's hosts; the running instance, which verified the very token
// before, must refuse it at once (bearer-entra.ts keys its verification by the tenant's hosts).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sharedTestDatabase, startTestServer, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { tokenRequest } from '../helpers/identity.ts';

const backend = testBackend();

describe(`an Entra token after another instance changed the tenant's host names (${backend})`, () => {
  const TENANT_ID = '6a2e1d3f-4c5b-4d6e-9f70-8a9b0c1d2e3f';
  const APP = 'b1b2c3d4-1111-4222-8333-444455556666';
  const SECRET = 'entra-host-change-secret';
  const HOST = 'fabrikam.sharepoint.com';
  const tenant = (hosts: string[]) => ({
    tenant: { name: 'fabrikam', id: TENANT_ID, hosts },
    users: [{ upn: 'olivia@fabrikam.onmicrosoft.com', displayName: 'Olivia Owner', password: 'pw-olivia' }],
    apps: [{ clientId: APP, displayName: 'Full control app', secrets: [SECRET], permissions: ['Sites.FullControl.All'] }],
    sites: [{ url: '/sites/test', title: 'Test', owners: ['olivia@fabrikam.onmicrosoft.com'], lists: [{ title: 'Tasks', template: 100 }] }],
  });
  const cleanups: Array<() => Promise<void> | void> = [];
  let db: string;
  let running: TestServer;

  before(async () => {
    const database = await sharedTestDatabase('spemu-entra-hosts-');
    cleanups.push(() => database.drop());
    db = database.db;
    running = await startTestServer({ db, shared: true, seed: tenant([HOST]), anonymousUser: undefined });
    cleanups.push(() => running.close());
  });
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  async function restartWith(hosts: string[]): Promise<void> {
    const other = await startTestServer({ db, shared: true, seed: tenant(hosts), anonymousUser: undefined });
    await other.close();
  }

  it('the token for the dropped host name is refused (401) by the instance that had verified it; the host named again lets it in', async () => {
    const issued = await tokenRequest(`${running.url}/${TENANT_ID}/oauth2/v2.0/token`,
      { grant_type: 'client_credentials', client_id: APP, client_secret: SECRET, scope: `https://${HOST}/.default` });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const token = issued.body.access_token as string;
    const send = async () => (await fetch(`${running.site('/sites/test')}/_api/web/lists/getbytitle('Tasks')/items`, {
      headers: { Accept: 'application/json;odata=nometadata', Authorization: `Bearer ${token}` },
    })).status;
    for (let i = 0; i < 3; i++) assert.equal(await send(), 200, 'the audience is one of the tenant\'s hosts');

    await restartWith([]);
    assert.equal(await send(), 401, 'the tenant no longer names the host the token is for');
    await restartWith([HOST]);
    assert.equal(await send(), 200, 'named again');
  });
});
