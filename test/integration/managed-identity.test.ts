// The managed-identity endpoint on the wire (`--managed-identity <upn>`): App Service's
// protocol (IDENTITY_ENDPOINT + X-IDENTITY-HEADER, api-version 2019-08-01) and IMDS's
// (Metadata: true), the answers and refusals clients read, and the token spemu then accepts:
// RS256 and Entra-shaped, a user's (UPN) or an app's (client id, app-only).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { startServer, ConfigError } from '../../src/index.ts';
import { DEMO_TENANT, startTestServer, testDatabase, useTestServer } from '../helpers/server.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const APP_SERVICE = '/_spemu/managed-identity/token';
const IMDS = '/metadata/identity/oauth2/token';
const SP = 'https://contoso.sharepoint.com';

describe('managed identity: App Service protocol', () => {
  const context = useTestServer({ managedIdentity: ALICE, anonymousUser: undefined, tokenSecret: 'a-fixed-secret-for-the-managed-identity-test' });
  const header = async () => {
    const { managedIdentityHeader } = await import('../../src/identity/managed-identity.ts');
    return managedIdentityHeader(new TextEncoder().encode('a-fixed-secret-for-the-managed-identity-test'));
  };
  const get = async (query: string, headers: Record<string, string> = {}) => fetch(`${context.server.url}${APP_SERVICE}?${query}`, { headers });

  it('answers a token for the resource, for the configured user, that spemu then accepts as that user', async () => {
    const res = await get(`resource=${encodeURIComponent(SP)}&api-version=2019-08-01`, { 'X-IDENTITY-HEADER': await header(), Metadata: 'true' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = await res.json() as Record<string, string>;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'client_id', 'expires_on', 'resource', 'token_type']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.resource, SP);
    assert.match(body.expires_on!, /^\d+$/);
    const claims = decodeJwt(body.access_token!);
    assert.equal(claims.aud, SP);
    assert.equal(claims.upn, ALICE);
    assert.equal(claims.oid, body.client_id);
    assert.equal(claims.exp, Number(body.expires_on));
    assert.match(String(claims.tid), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Issued by spemu's authority, as its token endpoint issues them: RS256 with the workspace's key.
    assert.equal(claims.iss, `${context.server.url}/${claims.tid}/`);
    assert.equal(decodeProtectedHeader(body.access_token!).alg, 'RS256');
    assert.equal(Number(body.expires_on) - Number(claims.iat), 24 * 3600);
    const asCaller = (token: string) => fetch(`${context.server.site()}/_api/web/currentuser?$select=UserPrincipalName`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json;odata=nometadata' },
    });
    // For another resource (its aud): refused here, as SharePoint refuses a token for another host.
    assert.equal((await asCaller(body.access_token!)).status, 401);
    const origin = new URL(context.server.url).origin;
    const mine = await (await get(`resource=${encodeURIComponent(origin)}&api-version=2019-08-01`, { 'X-IDENTITY-HEADER': await header() })).json() as Record<string, string>;
    const me = await asCaller(mine.access_token!);
    assert.equal(me.status, 200);
    assert.equal((await me.json() as { UserPrincipalName: string }).UserPrincipalName, ALICE);
  });

  it('refuses a missing or wrong X-IDENTITY-HEADER with 401, and gives no token', async () => {
    for (const headers of [{} as Record<string, string>, { 'X-IDENTITY-HEADER': 'not-the-header' }, { 'X-IDENTITY-HEADER': `${await header()}x` }]) {
      const res = await get(`resource=${encodeURIComponent(SP)}&api-version=2019-08-01`, headers);
      assert.equal(res.status, 401);
      const body = await res.json() as Record<string, unknown>;
      assert.equal(body.StatusCode, 401);
      assert.match(String(body.Message), /X-IDENTITY-HEADER/);
      assert.equal(body.access_token, undefined);
    }
  });

  it('refuses a missing resource and another api-version with 400', async () => {
    const h = { 'X-IDENTITY-HEADER': await header() };
    const noResource = await get('api-version=2019-08-01', h);
    assert.equal(noResource.status, 400);
    assert.match(String((await noResource.json() as { Message: string }).Message), /resource/);
    const oldVersion = await get(`resource=${encodeURIComponent(SP)}&api-version=2017-09-01`, h);
    assert.equal(oldVersion.status, 400);
    // A repeated parameter counts once (the first), never a crash.
    const twice = await get(`resource=${encodeURIComponent(SP)}&resource=x&api-version=2019-08-01&api-version=2019-08-01`, h);
    assert.equal(twice.status, 200);
    assert.equal((await twice.json() as { resource: string }).resource, SP);
  });

  it('client_id or principal_id naming the identity (object id or UPN) is answered; another is "No Managed Identity found"', async () => {
    const h = { 'X-IDENTITY-HEADER': await header() };
    const first = await (await get(`resource=${encodeURIComponent(SP)}&api-version=2019-08-01`, h)).json() as { client_id: string };
    for (const id of [`client_id=${first.client_id}`, `principal_id=${first.client_id.toUpperCase()}`, `client_id=${encodeURIComponent(ALICE)}`]) {
      const res = await get(`resource=${encodeURIComponent(SP)}&api-version=2019-08-01&${id}`, h);
      assert.equal(res.status, 200, id);
    }
    const other = await get(`resource=${encodeURIComponent(SP)}&api-version=2019-08-01&client_id=11111111-2222-3333-4444-555555555555`, h);
    assert.equal(other.status, 400);
    // CLI for Microsoft 365 retries with principal_id when Message says this.
    assert.match(String((await other.json() as { Message: string }).Message), /No Managed Identity found/);
  });
});

describe('managed identity: IMDS protocol', () => {
  const context = useTestServer({ managedIdentity: ALICE, anonymousUser: undefined });
  const get = (query: string, headers: Record<string, string> = {}) => fetch(`${context.server.url}${IMDS}?${query}`, { headers });

  it('needs Metadata: true, then answers a token with IMDS\'s fields (loopback peers only)', async () => {
    const bare = await get(`resource=${encodeURIComponent(SP)}&api-version=2018-02-01`);
    assert.equal(bare.status, 400);
    assert.deepEqual(await bare.json(), { error: 'invalid_request', error_description: 'Required metadata header not specified' });
    const res = await get(`resource=${encodeURIComponent(SP)}&api-version=2018-02-01`, { Metadata: 'true' });
    assert.equal(res.status, 200);
    const body = await res.json() as Record<string, string>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.resource, SP);
    assert.equal(Number(body.expires_on) - Number(body.not_before), Number(body.expires_in));
    assert.equal(decodeJwt(body.access_token!).upn, ALICE);
  });

  it('an unknown identity is "Identity not found"; no resource is refused', async () => {
    const other = await get(`resource=${encodeURIComponent(SP)}&api-version=2018-02-01&client_id=11111111-2222-3333-4444-555555555555`, { Metadata: 'true' });
    assert.equal(other.status, 400);
    assert.deepEqual(await other.json(), { error: 'invalid_request', error_description: 'Identity not found' });
    const noResource = await get('api-version=2018-02-01', { Metadata: 'true' });
    assert.equal(noResource.status, 400);
  });
});

describe('managed identity: an app (client id) gets app-only tokens', () => {
  const DEMO_APP = '5d1f3c2e-8a4b-4f6e-9c7d-2b1a0e9f8d7c';
  const context = useTestServer({ managedIdentity: DEMO_APP, anonymousUser: undefined });

  it('idtyp app with the granted permissions as roles; SharePoint sees the app (SHAREPOINT\\app), which can write', async () => {
    const origin = new URL(context.server.url).origin;
    const res = await fetch(`${context.server.url}${IMDS}?resource=${encodeURIComponent(origin)}&api-version=2018-02-01&client_id=${DEMO_APP}`, { headers: { Metadata: 'true' } });
    assert.equal(res.status, 200);
    const body = await res.json() as Record<string, string>;
    assert.equal(body.client_id, DEMO_APP);
    const claims = decodeJwt(body.access_token!);
    assert.deepEqual([claims.idtyp, claims.appid, claims.roles, claims.upn], ['app', DEMO_APP, ['Sites.FullControl.All'], undefined]);
    const auth = { Authorization: `Bearer ${body.access_token}`, Accept: 'application/json;odata=nometadata' };
    const added = await fetch(`${context.server.site()}/_api/web/lists/getbytitle('Tasks')/items`, {
      method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'By the managed identity' }),
    });
    assert.equal(added.status, 201, await added.clone().text());
    const item = await (await fetch(`${context.server.site()}/_api/web/lists/getbytitle('Tasks')/items(${(await added.json() as { Id: number }).Id})?$select=Author/Title&$expand=Author`, { headers: auth })).json() as { Author: { Title: string } };
    assert.equal(item.Author.Title, 'SharePoint App');
  });
});

describe('managed identity: configuration', () => {
  it('without --managed-identity, no identity is assigned: no token', async () => {
    const server = await startTestServer({ anonymousUser: undefined });
    try {
      const res = await fetch(`${server.url}${IMDS}?resource=${encodeURIComponent(SP)}`, { headers: { Metadata: 'true' } });
      assert.equal(res.status, 400);
      assert.equal((await res.json() as { error_description: string }).error_description, 'Identity not found');
    } finally {
      await server.close();
    }
  });

  it('a --managed-identity that is not a directory user is refused at start', async () => {
    const database = await testDatabase();
    try {
      await assert.rejects(startServer({ db: database.db, seed: DEMO_TENANT, port: 0, logLevel: 'silent', tokenSecret: 'x'.repeat(32), managedIdentity: 'nobody@contoso.onmicrosoft.com' }),
        (e: Error) => e instanceof ConfigError && /--managed-identity 'nobody@contoso\.onmicrosoft\.com' is neither an app/.test(e.message));
    } finally {
      await database.drop();
    }
  });
});
