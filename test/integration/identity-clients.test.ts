// Unmodified Microsoft and PnP clients against spemu's identity endpoints over HTTPS, as a user
// runs them: @azure/identity's ClientSecretCredential with authorityHost pointed at spemu, and
// PnPjs's SPDefault({ msal }) from @pnp/nodejs with a client secret and with a certificate,
// reading and writing items. They run in a child process trusting spemu's CA through
// NODE_EXTRA_CA_CERTS (test/fixtures/msal-clients.ts); MSAL speaks only HTTPS.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useTestServer } from '../helpers/server.ts';
import { APPS, TENANT_ID, appCertificate, identityTenant } from '../helpers/identity.ts';
import { tlsRequest } from '../helpers/tls-request.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-identity-')); dirs.push(d); return d; };

describe('unmodified MSAL clients over HTTPS', () => {
  const certificate = appCertificate();
  let data = '';
  const context = useTestServer(() => { data = tempDir(); return { https: true, data, seed: identityTenant(certificate), anonymousUser: undefined }; });

  it('@azure/identity gets a token spemu accepts; PnPjs with a secret and with a certificate reads and writes items as SharePoint App; MSAL password and device-code sign-ins complete', async () => {
    const site = context.server.site('/sites/test');
    const origin = new URL(site).origin;
    const configFile = join(tempDir(), 'config.json');
    writeFileSync(configFile, JSON.stringify({
      site, origin, tenantId: TENANT_ID, clientId: APPS.full.clientId, clientSecret: APPS.full.secret, list: 'Tasks',
      certClientId: APPS.cert.clientId, certThumbprint: certificate.sha1, certPrivateKey: certificate.key,
      publicClientId: APPS.public.clientId, username: 'mark@fabrikam.onmicrosoft.com', password: 'pw-mark',
    }));
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'test/fixtures/msal-clients.ts'), configFile], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(data, 'tls', 'ca.pem') },
    });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.stderr.on('data', (d) => { out += String(d); });
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(code, 0, out);
    const result = JSON.parse(out.trim().split('\n').pop()!);
    assert.equal(result.azureIdentity.status, 200);
    assert.equal(result.azureIdentity.title, 'Test');
    assert.ok(result.azureIdentity.expiresOnTimestamp > Date.now() + 50 * 60_000, 'an hour-long token');
    // MSAL's public client: the password grant and a device-code sign-in complete, as Mark.
    assert.equal(result.msalPassword.account, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(result.msalPassword.tenantId, TENANT_ID);
    assert.equal(result.msalPassword.loginName, 'i:0#.f|membership|mark@fabrikam.onmicrosoft.com');
    assert.equal(result.msalDeviceCode.account, 'mark@fabrikam.onmicrosoft.com');
    assert.equal(result.pnpMetadata.webTitle, 'Test', 'MSAL with cloudDiscoveryMetadata and authorityMetadata instead of knownAuthorities');
    for (const [kind, title] of [['pnpSecret', 'Written by PnPjs with a client secret'], ['pnpCertificate', 'Written by PnPjs with a certificate']] as const) {
      const r = result[kind];
      assert.equal(r.webTitle, 'Test', kind);
      assert.equal(r.item.Title, title, kind);
      // App-only writes are SharePoint App's, as in SharePoint Online.
      assert.equal(r.item.Author.Title, 'SharePoint App', kind);
      assert.equal(r.item.Editor.Title, 'SharePoint App', kind);
      assert.equal(r.updatedTitle, `${title} (updated)`, kind);
    }
    // The writes are there, read back over another connection with a user's Basic credentials.
    const ca = readFileSync(join(data, 'tls', 'ca.pem'), 'utf8');
    const check = await tlsRequest(`${site}/_api/web/lists/getbytitle('Tasks')/items?$select=Title&$orderby=Id`, {
      ca, headers: { Accept: 'application/json;odata=nometadata', Authorization: `Basic ${Buffer.from('olivia@fabrikam.onmicrosoft.com:pw-olivia').toString('base64')}` },
    });
    assert.deepEqual(check.json().value.map((i: { Title: string }) => i.Title), ['Written by PnPjs with a client secret (updated)', 'Written by PnPjs with a certificate (updated)']);
  });
});
