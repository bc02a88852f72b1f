// The identity front over plain HTTP, checked on the wire with fetch: OpenID discovery, JWKS,
// instance discovery, the token endpoint's grants and Entra's errors, and the authenticate
// stage's strict checks of Entra-shaped tokens (signature, issuer, audience, lifetime,
// algorithm), app-only permissions (Sites.Selected, read-only apps, apps without a grant).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT } from 'jose';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { issueToken } from '../../src/identity/tokens.ts';
import { APPS, TENANT_ID, appCertificate, claimsOf, identityTenant, tokenRequest } from '../helpers/identity.ts';

const NOMETADATA = 'application/json;odata=nometadata';
/** A JSON answer read loosely, for wire checks. */
type Loose = Record<string, any>;
const getJson = async (url: string): Promise<Loose> => await (await fetch(url)).json() as Loose;
const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

let server: TestServer;
let origin = '';
let data = '';
const certificate = appCertificate();
before(async () => {
  data = mkdtempSync(join(tmpdir(), 'spemu-identity-'));
  dirs.push(data);
  server = await startTestServer({ seed: identityTenant(certificate), data, anonymousUser: undefined });
  origin = server.url;
});
after(async () => { await server?.close(); });

const tokenUrl = (tenant = TENANT_ID, version: 1 | 2 = 2) => `${origin}/${tenant}/oauth2/${version === 2 ? 'v2.0/' : ''}token`;
const appToken = async (app: { clientId: string; secret: string }, scope = `${origin}/.default`) => {
  const r = await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.secret, scope });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.access_token as string;
};
const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${origin}${path}`, { ...init, headers: { Accept: NOMETADATA, Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> ?? {}) } });

/** Checks Entra's error envelope and returns it. */
async function entraError(r: { status: number; body: Record<string, unknown> }, status: number, error: string, code: number): Promise<Record<string, unknown>> {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error, error);
  assert.deepEqual(r.body.error_codes, [code]);
  assert.match(String(r.body.error_description), new RegExp(`^AADSTS${code}: `));
  assert.match(String(r.body.trace_id), /^[0-9a-f-]{36}$/);
  assert.match(String(r.body.correlation_id), /^[0-9a-f-]{36}$/);
  assert.match(String(r.body.timestamp), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
  assert.equal(r.body.access_token, undefined, 'no token with an error');
  return r.body;
}

describe('discovery', () => {
  it('answers OpenID configuration v2.0 and v1.0 by tenant id, domain and common, with this origin as the authority', async () => {
    for (const tenant of [TENANT_ID, 'fabrikam.onmicrosoft.com', TENANT_ID.toUpperCase()]) {
      const v2 = await getJson(`${origin}/${tenant}/v2.0/.well-known/openid-configuration`);
      assert.equal(v2.issuer, `${origin}/${TENANT_ID}/v2.0`);
      assert.equal(v2.token_endpoint, `${origin}/${TENANT_ID}/oauth2/v2.0/token`);
      assert.equal(v2.authorization_endpoint, `${origin}/${TENANT_ID}/oauth2/v2.0/authorize`);
      assert.equal(v2.jwks_uri, `${origin}/${TENANT_ID}/discovery/v2.0/keys`);
      assert.deepEqual(v2.id_token_signing_alg_values_supported, ['RS256']);
      const v1 = await getJson(`${origin}/${tenant}/.well-known/openid-configuration`);
      assert.equal(v1.issuer, `${origin}/${TENANT_ID}/`);
      assert.equal(v1.token_endpoint, `${origin}/${TENANT_ID}/oauth2/token`);
    }
    const common = await getJson(`${origin}/common/v2.0/.well-known/openid-configuration`);
    assert.equal(common.issuer, `${origin}/{tenantid}/v2.0`);
    assert.equal(common.token_endpoint, `${origin}/common/oauth2/v2.0/token`);
  });

  it('refuses an unknown tenant as Entra does (AADSTS90002)', async () => {
    const res = await fetch(`${origin}/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration`);
    await entraError({ status: res.status, body: await res.json() as Loose }, 400, 'invalid_tenant', 90002);
  });

  it('publishes the signing key in the JWKS (public half only) and answers MSAL instance discovery', async () => {
    const jwks = await getJson(`${origin}/${TENANT_ID}/discovery/v2.0/keys`);
    assert.equal(jwks.keys.length, 1);
    const [key] = jwks.keys;
    assert.equal(key.kty, 'RSA');
    assert.equal(key.alg, 'RS256');
    assert.equal(key.d, undefined, 'no private member');
    const token = await appToken(APPS.full);
    assert.equal(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid, key.kid);
    const authorize = `${origin}/${TENANT_ID}/oauth2/v2.0/authorize`;
    const instance = await getJson(`${origin}/common/discovery/instance?api-version=1.1&authorization_endpoint=${encodeURIComponent(authorize)}`);
    assert.equal(instance.tenant_discovery_endpoint, `${origin}/${TENANT_ID}/v2.0/.well-known/openid-configuration`);
    assert.deepEqual(instance.metadata[0].aliases, [new URL(origin).host]);
  });
});

describe('client credentials', () => {
  it('gives an app-only token shaped as Entra\'s, which SharePoint REST accepts as SharePoint App', async () => {
    const r = await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: APPS.full.clientId, client_secret: APPS.full.secret, scope: `${origin}/.default` });
    assert.equal(r.status, 200);
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(r.body.expires_in, 3599);
    assert.equal(r.body.scope, `${origin}/.default`);
    const claims = claimsOf(r.body.access_token as string);
    assert.equal(claims.aud, origin);
    assert.equal(claims.iss, `${origin}/${TENANT_ID}/`);
    assert.equal(claims.tid, TENANT_ID);
    assert.equal(claims.appid, APPS.full.clientId);
    assert.equal(claims.appidacr, '1');
    assert.equal(claims.idtyp, 'app');
    assert.deepEqual(claims.roles, ['Sites.FullControl.All']);
    assert.equal(claims.scp, undefined);
    assert.equal(claims.ver, '1.0');
    assert.equal((claims.exp as number) - (claims.iat as number), 3599);
    const me = await api('/sites/test/_api/web/currentuser', r.body.access_token as string);
    assert.equal(me.status, 200);
    const user = await me.json() as Loose;
    assert.equal(user.LoginName, 'SHAREPOINT\\app');
    assert.equal(user.Title, 'SharePoint App');
    assert.equal(user.PrincipalType, 1);
    assert.equal(user.UserPrincipalName, null);
  });

  it('takes client_secret_basic and the v1.0 endpoint with resource=', async () => {
    const basic = `Basic ${Buffer.from(`${APPS.full.clientId}:${encodeURIComponent(APPS.full.secret)}`).toString('base64')}`;
    const r = await tokenRequest(tokenUrl('fabrikam.onmicrosoft.com', 1), { grant_type: 'client_credentials', resource: origin }, { Authorization: basic });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.expires_in, '3599', 'v1.0 writes numbers as strings');
    assert.equal(r.body.resource, origin);
    assert.match(String(r.body.expires_on), /^\d+$/);
    assert.equal((await api('/sites/test/_api/web', r.body.access_token as string)).status, 200);
  });

  it('never gives a token for a wrong secret, another app\'s secret, an unknown app or no credential', async () => {
    const scope = `${origin}/.default`;
    const wrong = await entraError(await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: APPS.full.clientId, client_secret: 'not-the-secret', scope }), 401, 'invalid_client', 7000215);
    assert.match(String(wrong.error_description), /^AADSTS7000215: Invalid client secret provided\./);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: APPS.full.clientId, client_secret: APPS.reader.secret, scope }), 401, 'invalid_client', 7000215);
    const unknown = await entraError(await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: '99999999-9999-4999-8999-999999999999', client_secret: 'x', scope }), 400, 'unauthorized_client', 700016);
    assert.match(String(unknown.error_description), /Application with identifier '99999999-9999-4999-8999-999999999999' was not found in the directory/);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: APPS.full.clientId, scope }), 401, 'invalid_client', 7000218);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: APPS.full.clientId, client_secret: APPS.full.secret, scope: `${origin}/AllSites.Read` }), 400, 'invalid_scope', 1002012);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'client_credentials', client_id: APPS.full.clientId, client_secret: APPS.full.secret, scope: 'https://graph.microsoft.com/.default' }), 400, 'invalid_resource', 500011);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'implicit', client_id: APPS.full.clientId }), 400, 'unsupported_grant_type', 70003);
    await entraError(await tokenRequest(tokenUrl(), { client_id: APPS.full.clientId }), 400, 'invalid_request', 900144);
  });

  it('refuses a client assertion signed by a key other than the registered certificate\'s', async () => {
    const other = appCertificate('another app');
    const assertion = await new SignJWT({ aud: tokenUrl(), iss: APPS.cert.clientId, sub: APPS.cert.clientId, jti: 'x' })
      .setProtectedHeader({ alg: 'RS256', x5t: Buffer.from(certificate.sha1, 'hex').toString('base64url') })
      .setIssuedAt().setNotBefore('0s').setExpirationTime('10m').sign(createPrivateKey(other.key));
    const form = { grant_type: 'client_credentials', client_id: APPS.cert.clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion, scope: `${origin}/.default` };
    await entraError(await tokenRequest(tokenUrl(), form), 401, 'invalid_client', 700027);
    // The right key, but naming an unregistered certificate; then the right one for another token endpoint.
    const unregistered = await new SignJWT({ aud: tokenUrl(), iss: APPS.cert.clientId, sub: APPS.cert.clientId })
      .setProtectedHeader({ alg: 'RS256', x5t: Buffer.from(other.sha1, 'hex').toString('base64url') }).setIssuedAt().setExpirationTime('10m').sign(createPrivateKey(other.key));
    await entraError(await tokenRequest(tokenUrl(), { ...form, client_assertion: unregistered }), 401, 'invalid_client', 700027);
    const elsewhere = await new SignJWT({ aud: 'https://login.microsoftonline.com/x/oauth2/v2.0/token', iss: APPS.cert.clientId, sub: APPS.cert.clientId })
      .setProtectedHeader({ alg: 'RS256', x5t: Buffer.from(certificate.sha1, 'hex').toString('base64url') }).setIssuedAt().setExpirationTime('10m').sign(createPrivateKey(certificate.key));
    await entraError(await tokenRequest(tokenUrl(), { ...form, client_assertion: elsewhere }), 401, 'invalid_client', 700212);
    const good = await new SignJWT({ aud: tokenUrl(), iss: APPS.cert.clientId, sub: APPS.cert.clientId })
      .setProtectedHeader({ alg: 'PS256', 'x5t#S256': Buffer.from(certificate.sha256, 'hex').toString('base64url') }).setIssuedAt().setExpirationTime('10m').sign(createPrivateKey(certificate.key));
    const ok = await tokenRequest(tokenUrl(), { ...form, client_assertion: good });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(claimsOf(ok.body.access_token as string).appidacr, '2');
  });
});

describe('users: password and refresh_token grants', () => {
  const password = (form: Record<string, string> = {}) => tokenRequest(tokenUrl(), {
    grant_type: 'password', client_id: APPS.full.clientId, client_secret: APPS.full.secret, username: 'mark@fabrikam.onmicrosoft.com', password: 'pw-mark',
    scope: `${origin}/AllSites.Read openid profile offline_access`, client_info: '1', ...form,
  });

  it('gives a delegated token (scp, upn, name), an ID token and a refresh token; REST acts as the user', async () => {
    const r = await password();
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const claims = claimsOf(r.body.access_token as string);
    assert.equal(claims.upn, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(claims.unique_name, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(claims.name, 'Mark Member');
    assert.equal(claims.scp, 'AllSites.Read');
    assert.equal(claims.appid, APPS.full.clientId);
    assert.equal(claims.roles, undefined);
    const id = claimsOf(r.body.id_token as string);
    assert.equal(id.aud, APPS.full.clientId);
    assert.equal(id.iss, `${origin}/${TENANT_ID}/v2.0`);
    assert.equal(id.preferred_username, 'mark@fabrikam.onmicrosoft.com');
    assert.deepEqual(JSON.parse(Buffer.from(String(r.body.client_info), 'base64url').toString()), { uid: claims.oid, utid: TENANT_ID });
    const me = await (await api('/sites/test/_api/web/currentuser?$select=LoginName', r.body.access_token as string)).json() as Loose;
    assert.equal(me.LoginName, 'i:0#.f|membership|mark@fabrikam.onmicrosoft.com');
    // A public client needs no secret.
    const pub = await password({ client_id: APPS.public.clientId, client_secret: '' });
    assert.equal(pub.status, 200, JSON.stringify(pub.body));
  });

  it('answers AADSTS50126 for a wrong password, an unknown user and a user without a password', async () => {
    await entraError(await password({ password: 'wrong' }), 400, 'invalid_grant', 50126);
    await entraError(await password({ username: 'nobody@fabrikam.onmicrosoft.com' }), 400, 'invalid_grant', 50126);
    await entraError(await password({ username: 'nopass@fabrikam.onmicrosoft.com', password: '' }), 400, 'invalid_request', 900144);
    await entraError(await password({ username: 'nopass@fabrikam.onmicrosoft.com', password: 'anything' }), 400, 'invalid_grant', 50126);
  });

  it('redeems a refresh token for new tokens (a new refresh token each time), only for the client it was issued to', async () => {
    const first = await password();
    const refreshed = await tokenRequest(tokenUrl(), { grant_type: 'refresh_token', client_id: APPS.full.clientId, client_secret: APPS.full.secret, refresh_token: String(first.body.refresh_token) });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal(claimsOf(refreshed.body.access_token as string).upn, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(typeof refreshed.body.refresh_token, 'string');
    assert.notEqual(refreshed.body.refresh_token, first.body.refresh_token);
    assert.equal((await api('/sites/test/_api/web', refreshed.body.access_token as string)).status, 200);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'refresh_token', client_id: APPS.reader.clientId, client_secret: APPS.reader.secret, refresh_token: String(first.body.refresh_token) }), 400, 'invalid_grant', 70000);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'refresh_token', client_id: APPS.full.clientId, client_secret: APPS.full.secret, refresh_token: 'not-a-token' }), 400, 'invalid_grant', 9002313);
    // A refresh token is not a bearer token.
    assert.equal((await api('/sites/test/_api/web', String(first.body.refresh_token))).status, 401);
  });
});

describe('the authenticate stage checks Entra-shaped tokens strictly', () => {
  let key: KeyObject;
  let kid = '';
  const claims = () => {
    const now = Math.floor(Date.now() / 1000);
    return { aud: origin, iss: `${origin}/${TENANT_ID}/`, tid: TENANT_ID, upn: 'olivia@fabrikam.onmicrosoft.com', scp: 'AllSites.FullControl', iat: now, nbf: now, exp: now + 3600, ver: '1.0' };
  };
  const sign = (payload: Record<string, unknown>, signingKey: KeyObject = key, header: Record<string, unknown> = {}) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid, ...header }).sign(signingKey);
  const refused = async (token: string, diagnostics: RegExp) => {
    const res = await api('/sites/test/_api/web', token);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('x-ms-diagnostics') ?? '', diagnostics);
    assert.match(res.headers.get('www-authenticate') ?? '', new RegExp(`authorization_uri="${origin}/${TENANT_ID}/oauth2/authorize"`));
  };

  before(() => {
    // The workspace's key, as an attacker who had it would sign: the baseline must pass.
    const file = JSON.parse(readFileSync(join(data, 'identity', 'signing-keys.json'), 'utf8')) as { keys: Array<{ kid: string; privateKey: string }> };
    key = createPrivateKey(file.keys[0]!.privateKey);
    kid = file.keys[0]!.kid;
  });

  it('accepts a well-formed token signed with the workspace key (the baseline)', async () => {
    assert.equal((await api('/sites/test/_api/web', await sign(claims()))).status, 200);
  });

  it('refuses a token signed with another RS256 key under our kid', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await refused(await sign(claims(), privateKey), /^3000006;/);
    await refused(await sign(claims(), privateKey, { kid: 'unknown-kid' }), /^3000006;/);
  });

  it('refuses a wrong audience and a wrong issuer', async () => {
    await refused(await sign({ ...claims(), aud: 'https://contoso.sharepoint.com' }), /^3000004;/);
    await refused(await sign({ ...claims(), aud: '00000003-0000-0ff1-ce00-000000000000' }), /^3000004;/);
    await refused(await sign({ ...claims(), iss: `${origin}/00000000-0000-0000-0000-000000000001/` }), /^3000005;/);
    await refused(await sign({ ...claims(), iss: `https://evil.example/${TENANT_ID}/` }), /^3000005;/);
    await refused(await sign({ ...claims(), iss: `https://sts.windows.net/${TENANT_ID}/` }), /^3000005;/);
  });

  it('refuses an expired or not yet valid token (beyond a minute of skew), and one without exp', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(await sign({ ...claims(), iat: now - 7200, nbf: now - 7200, exp: now - 120 }), /^3000007;/);
    await refused(await sign({ ...claims(), nbf: now + 600 }), /^3000008;/);
    const { exp: _exp, ...noExp } = claims();
    await refused(await sign(noExp), /^3000003;/);
  });

  it('refuses alg none and an HS256 token keyed with the public key (no algorithm confusion)', async () => {
    await refused(new UnsecuredJWT(claims()).encode(), /^3005004;/);
    // The public key as anyone can have it: PEM (SPKI and PKCS#1) and the JWKS's own JSON.
    const spki = createPublicKey(key).export({ format: 'pem', type: 'spki' }) as string;
    const pkcs1 = createPublicKey(key).export({ format: 'pem', type: 'pkcs1' }) as string;
    const jwks = await (await fetch(`${origin}/${TENANT_ID}/discovery/keys`)).text();
    for (const secret of [spki, pkcs1, jwks]) {
      const hs = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode(secret));
      await refused(hs, /^3000006;/);
    }
  });
});

describe('app-only permissions', () => {
  it('Sites.Selected reaches only the sites granted', async () => {
    const token = await appToken(APPS.selected);
    assert.equal((await api('/sites/test/_api/web', token)).status, 200);
    const denied = await api('/sites/other/_api/web', token);
    assert.equal(denied.status, 403);
    assert.match((await denied.json() as Loose)['odata.error'].message.value, /^Access denied\./);
    // Granted `write` on /sites/test: items can be added there.
    const add = await api("/sites/test/_api/web/lists/getbytitle('Tasks')/items", token, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'by the selected app' }) });
    assert.equal(add.status, 201);
  });

  it('Sites.Read.All reads everywhere and writes nowhere', async () => {
    const token = await appToken(APPS.reader);
    assert.equal((await api('/sites/other/_api/web', token)).status, 200);
    const add = await api("/sites/other/_api/web/lists/getbytitle('Tasks')/items", token, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'x' }) });
    assert.equal(add.status, 403);
  });

  it('an app without a SharePoint permission gets SharePoint\'s "Unsupported app only token."', async () => {
    const token = await appToken(APPS.none);
    const res = await api('/sites/test/_api/web', token);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('x-ms-diagnostics') ?? '', /Unsupported app only token\./);
  });

  it('spemu token (HS256, the workspace secret) keeps working beside Entra-shaped tokens', async () => {
    const secret = readFileSync(join(data, 'token-secret'), 'utf8').trim();
    const hs = await issueToken(new TextEncoder().encode(secret), 'mark@fabrikam.onmicrosoft.com', { expiresInSeconds: 600, now: new Date() });
    const me = await api('/sites/test/_api/web/currentuser?$select=LoginName', hs);
    assert.equal(me.status, 200);
    assert.equal((await me.json() as { LoginName: string }).LoginName, 'i:0#.f|membership|mark@fabrikam.onmicrosoft.com');
  });
});
