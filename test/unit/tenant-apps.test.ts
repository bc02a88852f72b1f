// App registrations in the tenant file: the schema's shape and the cross-checks it cannot
// express; how they are stored (secrets hashed only); and the tenant hash leaving them out.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TenantFileError, validateTenant } from '../../src/tenant/validate.ts';
import { tenantHash } from '../../src/tenant/load.ts';
import { appSiteRole, checkAppSecret, registerApps, withoutAppSecrets } from '../../src/identity/apps.ts';
import type { TenantFile } from '../../src/tenant/types.ts';
import { registerIssuers } from '../../src/identity/trusted-issuers.ts';
import { appCertificate } from '../helpers/identity.ts';

const ID = '5d1f3c2e-8a4b-4f6e-9c7d-2b1a0e9f8d7c';
const tenant = (apps: unknown[]): TenantFile => ({
  tenant: { name: 'contoso' }, users: [{ upn: 'alice@contoso.onmicrosoft.com', displayName: 'Alice' }],
  sites: [{ url: '/sites/dev', title: 'Dev', owners: ['alice@contoso.onmicrosoft.com'] }], apps,
} as TenantFile);

function problems(doc: TenantFile): string[] {
  try {
    validateTenant(doc);
  } catch (e) {
    assert.ok(e instanceof TenantFileError);
    return e.problems.map((p) => `${p.path}: ${p.message}`);
  }
  return [];
}

describe('apps in the tenant file', () => {
  it('accept secrets, a certificate, permissions and Sites.Selected grants', () => {
    const cert = appCertificate();
    assert.deepEqual(problems(tenant([
      { clientId: ID, displayName: 'App', secrets: ['s1', { value: 's2', expires: '2030-01-01T00:00:00Z' }], certificates: [{ pem: cert.cert }], permissions: ['Sites.Selected'], sites: [{ url: '/sites/dev', role: 'write' }] },
    ])), []);
  });

  it('refuse a duplicate client id, an unknown permission, a grant to a site not in the file, grants without Sites.Selected and an unreadable certificate', () => {
    const found = problems(tenant([
      { clientId: ID, displayName: 'A', permissions: ['Sites.Everything'] },
      { clientId: ID.toUpperCase(), displayName: 'B', permissions: ['Sites.Read.All'], sites: [{ url: '/sites/nope', role: 'read' }] },
      { clientId: '11111111-1111-4111-8111-111111111111', displayName: 'C', certificates: [{ pem: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' }] },
    ]));
    assert.ok(found.some((p) => p.startsWith('/apps/0/permissions/0')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('/apps/1/clientId: duplicate client id')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('/apps/1/sites/0/url: "/sites/nope" is not the URL of a site')), found.join('\n'));
    assert.ok(found.some((p) => p === '/apps/1/sites: sites are granted only with the Sites.Selected permission'), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('/apps/2/certificates/0/pem')), found.join('\n'));
  });

  it('are stored with hashed secrets only, and are left out of the tenant hash', async () => {
    const doc = tenant([{ clientId: ID, displayName: 'App', secrets: ['the-secret-value'], permissions: ['Sites.Read.All'] }]);
    const [app] = await registerApps('contoso', [{ clientId: ID, displayName: 'App', secrets: ['the-secret-value'], permissions: ['Sites.Read.All'] }]);
    assert.ok(!JSON.stringify(app).includes('the-secret-value'));
    assert.equal(await checkAppSecret(app!, 'the-secret-value', new Date()), true);
    assert.equal(await checkAppSecret(app!, 'another', new Date()), false);
    assert.ok(!JSON.stringify(withoutAppSecrets(doc)).includes('the-secret-value'));
    // Apps can change between seeds without a reset; a file without apps hashes as before they existed.
    const { apps: _apps, ...noApps } = doc;
    assert.equal(tenantHash(doc), tenantHash(noApps as TenantFile));
    assert.equal(appSiteRole(['Sites.Read.All'], app, '/sites/dev'), 'visitor');
  });

  it('expired secrets no longer count', async () => {
    const [app] = await registerApps('contoso', [{ clientId: ID, displayName: 'App', secrets: [{ value: 'old-secret', expires: '2020-01-01T00:00:00Z' }] }]);
    assert.equal(await checkAppSecret(app!, 'old-secret', new Date()), false);
  });
});

describe('trusted token issuers in the tenant file', () => {
  const ISSUER = '9e9e46c4-6329-4990-a0b8-13b87b3ba56a';
  const withIssuers = (trustedIssuers: unknown[]): TenantFile => ({ ...tenant([]), trustedIssuers } as TenantFile);

  it('accept an issuer id and a certificate, stored with its SHA-1 thumbprint, left out of the tenant hash', () => {
    const cert = appCertificate();
    const doc = withIssuers([{ issuerId: ISSUER, name: 'High-trust add-ins', certificate: { pem: cert.cert } }]);
    assert.deepEqual(problems(doc), []);
    const [issuer] = registerIssuers([{ issuerId: ISSUER.toUpperCase(), pem: cert.cert }]);
    assert.equal(issuer!.issuerId, ISSUER);
    assert.equal(issuer!.certificate.sha1, cert.sha1.toUpperCase());
    const { trustedIssuers: _issuers, ...none } = doc;
    assert.equal(tenantHash(doc), tenantHash(none as TenantFile));
  });

  it('refuse a duplicate issuer id, an unreadable certificate, a missing certificate and a non-GUID id', () => {
    const cert = appCertificate();
    const found = problems(withIssuers([
      { issuerId: ISSUER, certificate: { pem: cert.cert } },
      { issuerId: ISSUER.toUpperCase(), certificate: { pem: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' } },
      { issuerId: ISSUER.replace('9e9e', 'aaaa') },
      { issuerId: 'not-a-guid', certificate: { file: 'x.pem' } },
    ]));
    assert.ok(found.some((p) => p.startsWith('/trustedIssuers/1/issuerId: duplicate issuer id')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('/trustedIssuers/1/certificate/pem')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('/trustedIssuers/2')), found.join('\n'));
    assert.ok(found.some((p) => p.startsWith('/trustedIssuers/3/issuerId')), found.join('\n'));
  });
});
