// The identity front over plain HTTP, checked on the wire with fetch: OpenID discovery, JWKS,
// instance discovery, the token endpoint's grants and Entra's errors, and the authenticate
// stage's strict checks of Entra-shaped tokens (signature, issuer, audience, lifetime,
// algorithm), app-only permissions (Sites.Selected, read-only apps, apps without a grant).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

  it('lets single-page apps call the token endpoint cross-origin (CORS preflight and answers)', async () => {
    const pre = await fetch(tokenUrl(), { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-anchormailbox,client-request-id' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.equal(pre.headers.get('access-control-allow-headers'), 'x-anchormailbox,client-request-id');
    const res = await fetch(`${origin}/${TENANT_ID}/v2.0/.well-known/openid-configuration`, { headers: { Origin: 'https://app.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
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

  it('lets a delegated token do no more than its scopes allow (AllSites.Read reads, AllSites.Write writes)', async () => {
    const add = (token: string) => api("/sites/test/_api/web/lists/getbytitle('Tasks')/items", token, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'scoped' }) });
    const readOnly = await sign({ ...claims(), scp: 'AllSites.Read' });
    assert.equal((await api('/sites/test/_api/web', readOnly)).status, 200);
    assert.equal((await add(readOnly)).status, 403);
    assert.equal((await add(await sign({ ...claims(), scp: 'AllSites.Write' }))).status, 201);
    // Olivia is an owner: with AllSites.Manage she edits but does not manage the site's permissions.
    const manage = await sign({ ...claims(), scp: 'AllSites.Manage' });
    const perms = await (await api('/sites/test/_api/web/EffectiveBasePermissions', manage)).json() as Loose;
    const full = await (await api('/sites/test/_api/web/EffectiveBasePermissions', await sign(claims()))).json() as Loose;
    assert.notDeepEqual(perms, full);
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

describe('logs', () => {
  it('never hold a secret, a password or a token, even at trace level', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/identity-logs.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), fixture]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += String(d); });
    child.stderr.on('data', (d) => { stderr += String(d); });
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(code, 0, stderr);
    const used = JSON.parse(/^USED (.*)$/m.exec(stderr)![1]!) as string[];
    assert.ok(used.length >= 10);
    // The log did capture the identity requests (so an empty log cannot pass).
    assert.match(stdout, /identity request/);
    assert.match(stdout, /"code":7000215/);
    for (const secret of used) {
      assert.ok(!stdout.includes(secret), `the log holds ${secret.slice(0, 12)}…`);
      // Nor the JWT's signature alone (a token split across fields).
      if (secret.split('.').length === 3) assert.ok(!stdout.includes(secret.split('.')[2]!), 'the log holds a token signature');
    }
  });
});

describe('device code', () => {
  const deviceUrl = `/${TENANT_ID}/oauth2/v2.0/devicecode`;
  const start = async () => {
    const r = await tokenRequest(`${origin}${deviceUrl}`, { client_id: APPS.public.clientId, scope: `${origin}/AllSites.Read openid offline_access` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { user_code: string; device_code: string; verification_uri: string; interval: number; expires_in: number; message: string };
  };
  const poll = (deviceCode: string) => tokenRequest(tokenUrl(), { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: APPS.public.clientId, device_code: deviceCode });
  const session = async (upn: string, password: string) => {
    const res = await fetch(`${origin}/_spemu/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ upn, password }) });
    assert.equal(res.status, 200);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  };
  const answer = (cookie: string, code: string, decision: 'approve' | 'decline') => fetch(`${origin}/_spemu/devicelogin`, {
    method: 'POST', redirect: 'manual', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ code, decision }).toString(),
  });

  it('completes: pending until the user approves at /_spemu/devicelogin, then tokens for that user, once', async () => {
    const started = await start();
    assert.match(started.user_code, /^[A-Z2-9]{9}$/);
    assert.equal(started.verification_uri, `${origin}/_spemu/devicelogin`);
    assert.equal(started.interval, 5);
    assert.equal(started.expires_in, 900);
    assert.ok(started.message.includes(started.user_code));
    await entraError(await poll(started.device_code), 400, 'authorization_pending', 70016);
    // Without a session the page sends the browser to sign in, and back.
    const anonymous = await fetch(`${origin}/_spemu/devicelogin`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get('location'), '/_spemu/login?returnUrl=%2F_spemu%2Fdevicelogin');
    const cookie = await session('mark@fabrikam.onmicrosoft.com', 'pw-mark');
    const typed = `${started.user_code.slice(0, 4).toLowerCase()}-${started.user_code.slice(4)}`;
    const approved = await answer(cookie, typed, 'approve');
    assert.equal(approved.status, 200);
    assert.match(await approved.text(), /You have signed in to <strong>Public client<\/strong>/);
    const done = await poll(started.device_code);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(claimsOf(done.body.access_token as string).upn, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(claimsOf(done.body.access_token as string).scp, 'AllSites.Read');
    assert.equal(typeof done.body.refresh_token, 'string');
    assert.equal((await api('/sites/test/_api/web', done.body.access_token as string)).status, 200);
    // A replayed device code gets nothing; the user code cannot be approved again.
    await entraError(await poll(started.device_code), 400, 'invalid_grant', 70000);
    assert.equal((await answer(cookie, started.user_code, 'approve')).status, 400);
  });

  it('refuses a declined request, a forged device code and another client\'s', async () => {
    const started = await start();
    const cookie = await session('mark@fabrikam.onmicrosoft.com', 'pw-mark');
    assert.equal((await answer(cookie, started.user_code, 'decline')).status, 200);
    await entraError(await poll(started.device_code), 400, 'authorization_declined', 70000);
    const other = await start();
    await entraError(await poll(`${other.user_code}.forged`), 400, 'bad_verification_code', 70019);
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'device_code', client_id: APPS.full.clientId, client_secret: APPS.full.secret, device_code: other.device_code }), 400, 'bad_verification_code', 70019);
  });
});

describe('authorization code with PKCE', () => {
  const verifier = 'a'.repeat(20) + 'B-._~'.repeat(5) + 'c'.repeat(10);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorizeUrl = (extra: Record<string, string> = {}) => `${origin}/${TENANT_ID}/oauth2/v2.0/authorize?${new URLSearchParams({
    client_id: APPS.public.clientId, response_type: 'code', redirect_uri: 'http://localhost:5173/callback', scope: `${origin}/AllSites.Read openid offline_access`,
    state: 'st-1', code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-1', ...extra,
  })}`;
  let cookie = '';
  const codeFrom = async (extra: Record<string, string> = {}) => {
    const res = await fetch(authorizeUrl(extra), { redirect: 'manual', headers: { Cookie: cookie } });
    assert.equal(res.status, 302, await res.text());
    const location = new URL(res.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, 'http://localhost:5173/callback');
    assert.equal(location.searchParams.get('state'), 'st-1');
    return location.searchParams.get('code')!;
  };
  const redeem = (code: string, codeVerifier = verifier, redirectUri = 'http://localhost:5173/callback') => tokenRequest(tokenUrl(), {
    grant_type: 'authorization_code', client_id: APPS.public.clientId, code, redirect_uri: redirectUri, code_verifier: codeVerifier,
  });

  it('signs in through /_spemu/login, sends the code to the registered (loopback) redirect URI, and redeems it once with the verifier', async () => {
    const first = await fetch(authorizeUrl(), { redirect: 'manual' });
    assert.equal(first.status, 303);
    const back = decodeURIComponent(first.headers.get('location')!.replace('/_spemu/login?returnUrl=', ''));
    assert.ok(back.startsWith(`/${TENANT_ID}/oauth2/v2.0/authorize?`), back);
    const login = await fetch(`${origin}/_spemu/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ upn: 'mark@fabrikam.onmicrosoft.com', password: 'pw-mark' }) });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const code = await codeFrom();
    const r = await redeem(code);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(claimsOf(r.body.access_token as string).upn, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(claimsOf(r.body.id_token as string).nonce, 'n-1');
    assert.equal(typeof r.body.refresh_token, 'string');
    assert.equal((await api('/sites/test/_api/web', r.body.access_token as string)).status, 200);
    // A reused code gets nothing.
    await entraError(await redeem(code), 400, 'invalid_grant', 54005);
  });

  it('refuses a verifier that does not match, another redirect URI, and an unregistered redirect URI (never redirecting there)', async () => {
    await entraError(await redeem(await codeFrom(), 'x'.repeat(43)), 400, 'invalid_grant', 501481);
    await entraError(await redeem(await codeFrom(), verifier, 'http://localhost:5173/other'), 400, 'invalid_grant', 500117);
    const evil = await fetch(authorizeUrl({ redirect_uri: 'https://evil.example/steal' }), { redirect: 'manual', headers: { Cookie: cookie } });
    assert.equal(evil.status, 400);
    assert.equal(evil.headers.get('location'), null);
    await entraError({ status: evil.status, body: await evil.json() as Loose }, 400, 'invalid_request', 50011);
    // Errors after the redirect URI is known go back to it, with the state.
    const badType = await fetch(authorizeUrl({ response_type: 'token' }), { redirect: 'manual', headers: { Cookie: cookie } });
    assert.equal(new URL(badType.headers.get('location')!).searchParams.get('error'), 'unsupported_response_type');
  });
});

describe('a disabled account (accountEnabled: false)', () => {
  const DORA = 'dora@fabrikam.onmicrosoft.com';
  it('gets no token and signs in by no means, whatever it proves', async () => {
    await entraError(await tokenRequest(tokenUrl(), { grant_type: 'password', client_id: APPS.full.clientId, client_secret: APPS.full.secret, username: DORA, password: 'pw-dora', scope: `${origin}/.default` }), 400, 'invalid_grant', 50126);
    const basic = await fetch(`${origin}/sites/test/_api/web`, { headers: { Accept: NOMETADATA, Authorization: `Basic ${Buffer.from(`${DORA}:pw-dora`).toString('base64')}` } });
    assert.equal(basic.status, 401);
    const login = await fetch(`${origin}/_spemu/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ upn: DORA, password: 'pw-dora' }) });
    assert.equal(login.status, 401);
    // Tokens made for the account anyway (spemu token, or signed with the workspace key) are refused too.
    const secret = readFileSync(join(data, 'token-secret'), 'utf8').trim();
    const hs = await issueToken(new TextEncoder().encode(secret), DORA, { expiresInSeconds: 600, now: new Date() });
    assert.equal((await api('/sites/test/_api/web', hs)).status, 401);
    const file = JSON.parse(readFileSync(join(data, 'identity', 'signing-keys.json'), 'utf8')) as { keys: Array<{ kid: string; privateKey: string }> };
    const now = Math.floor(Date.now() / 1000);
    const rs = await new SignJWT({ aud: origin, iss: `${origin}/${TENANT_ID}/`, upn: DORA, scp: 'AllSites.Read', iat: now, nbf: now, exp: now + 600 })
      .setProtectedHeader({ alg: 'RS256', kid: file.keys[0]!.kid }).sign(createPrivateKey(file.keys[0]!.privateKey));
    assert.equal((await api('/sites/test/_api/web', rs)).status, 401);
    // The same token shape for an enabled member works: the refusal is the account's.
    const mark = await new SignJWT({ aud: origin, iss: `${origin}/${TENANT_ID}/`, upn: 'mark@fabrikam.onmicrosoft.com', scp: 'AllSites.Read', iat: now, nbf: now, exp: now + 600 })
      .setProtectedHeader({ alg: 'RS256', kid: file.keys[0]!.kid }).sign(createPrivateKey(file.keys[0]!.privateKey));
    assert.equal((await api('/sites/test/_api/web', mark)).status, 200);
  });
});
