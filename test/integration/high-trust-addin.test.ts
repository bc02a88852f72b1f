// High-trust (S2S) add-in tokens, as SharePoint Server takes them from a provider-hosted add-in:
// sp-request 3 (node-sp-auth inside), unmodified, with on-premises add-in-only credentials
// `{ clientId, issuerId, realm, rsaPrivateKeyPath, shaThumbprint }` signs an RS256 token with a
// certificate registered as a trusted issuer in the tenant file and acts as the app it names
// (SHAREPOINT\app, with the app's permissions). Refusals are checked on the wire with fetch and
// hand-signed tokens: each a 401 with SharePoint's challenge and x-ms-diagnostics.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { useTestServer } from '../helpers/server.ts';
import { appCertificate } from '../helpers/identity.ts';

const require = createRequire(import.meta.url);
const sprequest = require('sp-request') as typeof import('sp-request');

const TENANT_ID = '5d1f0c2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
const ISSUER_ID = '9e9e46c4-6329-4990-a0b8-13b87b3ba56a';
const ADDIN = 'ded561d0-05dc-48b8-8c64-9b161392b9e8';
const READER = 'a0a0a0a0-1111-4222-8333-444455556666';
const SP = '00000003-0000-0ff1-ce00-000000000000';
const VERBOSE = 'application/json;odata=verbose';
const NOMETADATA = 'application/json;odata=nometadata';
const ITEMS = "/sites/test/_api/web/lists/getbytitle('Tasks')/items";

const certificate = appCertificate('spemu high-trust issuer');
const other = appCertificate('some other certificate');
const dir = mkdtempSync(join(tmpdir(), 'spemu-high-trust-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const keyPath = join(dir, 'spaddin.key');
writeFileSync(keyPath, certificate.key);
const otherKeyPath = join(dir, 'other.key');
writeFileSync(otherKeyPath, other.key);
/** x5t as SharePoint's TokenHelper writes it: base64 of the SHA-1 hash. */
const x5t = (sha1: string) => Buffer.from(sha1, 'hex').toString('base64');

const tenant = {
  tenant: { name: 'fabrikam', id: TENANT_ID },
  users: [{ upn: 'olivia@fabrikam.onmicrosoft.com', displayName: 'Olivia Owner', password: 'pw-olivia' }],
  apps: [
    { clientId: ADDIN, displayName: 'Provider-hosted add-in', permissions: ['Sites.FullControl.All'] },
    { clientId: READER, displayName: 'Read-only add-in', permissions: ['Sites.Read.All'] },
  ],
  trustedIssuers: [{ issuerId: ISSUER_ID, name: 'High-trust add-ins', certificate: { pem: certificate.cert } }],
  sites: [{ url: '/sites/test', title: 'Test', owners: ['olivia@fabrikam.onmicrosoft.com'], lists: [{ title: 'Tasks', template: 100 }] }],
};

type Verbose<T> = { d: T };

describe('sp-request with on-premises add-in-only credentials', () => {
  const spemu = useTestServer({ seed: tenant, anonymousUser: undefined });
  const credentials = (overrides: Record<string, string> = {}) =>
    ({ clientId: ADDIN, issuerId: ISSUER_ID, realm: TENANT_ID, rsaPrivateKeyPath: keyPath, shaThumbprint: x5t(certificate.sha1), ...overrides });

  it('reads the web and writes an item as SharePoint App', async () => {
    const site = spemu.server.site('/sites/test');
    const spr = sprequest.create(credentials());
    const web = await spr.get(`${site}/_api/web`);
    assert.equal(web.statusCode, 200);
    assert.equal((web.body as Verbose<{ Title: string }>).d.Title, 'Test');
    const me = (await spr.get(`${site}/_api/web/currentuser`)).body as Verbose<{ LoginName: string; Title: string }>;
    assert.equal(me.d.LoginName, 'SHAREPOINT\\app');

    const digest = await spr.requestDigest(site);
    const created = await spr.post(`${spemu.server.url}${ITEMS}`, {
      headers: { 'X-RequestDigest': digest },
      body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'Filed by a high-trust add-in' },
    });
    assert.equal(created.statusCode, 201);
    const id = (created.body as Verbose<{ Id: number }>).d.Id;
    const read = await spr.get(`${spemu.server.url}${ITEMS}(${id})?$select=Title,Author/Title,Editor/Title&$expand=Author,Editor`);
    const item = (read.body as Verbose<{ Title: string; Author: { Title: string }; Editor: { Title: string } }>).d;
    assert.equal(item.Title, 'Filed by a high-trust add-in');
    assert.equal(item.Author.Title, 'SharePoint App');
    assert.equal(item.Editor.Title, 'SharePoint App');
  });

  /** got's HTTPError for SharePoint's 401 and its Bearer challenge. */
  const unauthorized = (e: { response?: { statusCode?: number; headers?: Record<string, string> } }) =>
    e.response?.statusCode === 401 && (e.response.headers?.['www-authenticate'] ?? '').startsWith(`Bearer realm="${TENANT_ID}"`);

  it('is refused with a wrong realm or a thumbprint naming no trusted certificate', async () => {
    // node-sp-auth caches its token by audience (host and realm): each case uses an audience of its own.
    const wrongRealm = sprequest.create(credentials({ realm: '00000000-0000-4000-8000-000000000001' }));
    await assert.rejects(wrongRealm.get(`${spemu.server.site('/sites/test')}/_api/web`), unauthorized);
    const viaLocalhost = spemu.server.site('/sites/test').replace('127.0.0.1', 'localhost');
    const wrongThumbprint = sprequest.create(credentials({ rsaPrivateKeyPath: otherKeyPath, shaThumbprint: x5t(other.sha1) }));
    await assert.rejects(wrongThumbprint.get(`${viaLocalhost}/_api/web`), unauthorized);
  });
});

describe('high-trust tokens on the wire', () => {
  const spemu = useTestServer({ seed: tenant, anonymousUser: undefined });
  let origin = '';
  let key: KeyObject;
  before(() => {
    origin = spemu.server.url;
    key = createPrivateKey(certificate.key);
  });

  const claims = (overrides: JWTPayload = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    return {
      aud: `${SP}/${new URL(origin).host}@${TENANT_ID}`, iss: `${ISSUER_ID}@${TENANT_ID}`, nameid: `${ADDIN}@${TENANT_ID}`,
      nbf: now - 60, exp: now + 3600, trustedfordelegation: true, ...overrides,
    };
  };
  const sign = (payload: JWTPayload, signer: KeyObject = key, thumbprint = certificate.sha1) =>
    new SignJWT(payload).setProtectedHeader({ typ: 'JWT', alg: 'RS256', x5t: x5t(thumbprint) }).sign(signer);
  const api = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${origin}${path}`, { ...init, headers: { Accept: NOMETADATA, Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> ?? {}) } });
  const refused = async (token: string, diagnostics: RegExp) => {
    const res = await api('/sites/test/_api/web', token);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('x-ms-diagnostics') ?? '', diagnostics);
    assert.match(res.headers.get('www-authenticate') ?? '', new RegExp(`^Bearer realm="${TENANT_ID}",client_id="${SP}"`));
    const body = await res.json() as { 'odata.error'?: unknown; error?: unknown };
    assert.ok(body['odata.error'] ?? body.error, 'SharePoint\'s error envelope');
  };

  it('accepts the baseline token (x5t as base64 or base64url) and acts as the app it names', async () => {
    const res = await api('/sites/test/_api/web/currentuser?$select=LoginName,Title', await sign(claims()));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { LoginName: 'SHAREPOINT\\app', Title: 'SharePoint App' });
    const urlSafe = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', x5t: Buffer.from(certificate.sha1, 'hex').toString('base64url') }).sign(key);
    assert.equal((await api('/sites/test/_api/web', urlSafe)).status, 200);
  });

  it('gives the named app its own permissions: a read-only add-in reads but may not write', async () => {
    const token = await sign(claims({ nameid: `${READER}@${TENANT_ID}` }));
    assert.equal((await api('/sites/test/_api/web', token)).status, 200);
    const write = await api(ITEMS, token, { method: 'POST', headers: { 'Content-Type': VERBOSE, Accept: VERBOSE }, body: JSON.stringify({ __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'no' }) });
    assert.equal(write.status, 403);
  });

  it('refuses a thumbprint of another certificate, and a token signed by a key other than the issuer\'s', async () => {
    await refused(await sign(claims(), createPrivateKey(other.key), other.sha1), /^3000005;/);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await refused(await sign(claims(), privateKey), /^3000006;/);
    await refused(await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign(key), /^3000005;/);
  });

  it('refuses a wrong realm, issuer or audience, and an app that is not registered', async () => {
    const realm = '00000000-0000-4000-8000-000000000001';
    await refused(await sign(claims({ iss: `${ISSUER_ID}@${realm}` })), /^3000005;/);
    await refused(await sign(claims({ iss: `11111111-2222-4333-8444-555555555555@${TENANT_ID}` })), /^3000005;/);
    await refused(await sign(claims({ aud: `${SP}/${new URL(origin).host}@${realm}` })), /^3000004;/);
    await refused(await sign(claims({ aud: `${SP}/intranet.example@${TENANT_ID}` })), /^3000004;/);
    await refused(await sign(claims({ nameid: `${ADDIN}@${realm}` })), /^3000010;/);
    await refused(await sign(claims({ nameid: `12345678-1234-4234-8234-123456789012@${TENANT_ID}` })), /^3000010;/);
  });

  it('refuses an expired or not yet valid token beyond a minute of skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(await sign(claims({ nbf: now - 7200, exp: now - 120 })), /^3000007;/);
    await refused(await sign(claims({ nbf: now + 600 })), /^3000008;/);
    const { exp: _exp, ...noExp } = claims();
    await refused(await sign(noExp), /^300000[37];/);
  });

  it('refuses alg none and HS256, and a user-context token (actortoken)', async () => {
    await refused(new UnsecuredJWT(claims()).encode(), /^3005004;/);
    await refused(await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', x5t: x5t(certificate.sha1) }).sign(new TextEncoder().encode('a shared secret of thirty-two bytes!')), /^3005004;/);
    const actor = await sign(claims());
    const outer = new UnsecuredJWT({ ...claims(), nameid: 's-1-5-21-1234', nii: 'urn:office:idp:activedirectory', actortoken: actor }).encode();
    await refused(outer, /^3001000;.*user-context/);
  });
});
