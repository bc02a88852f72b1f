// Fixtures for the identity front's tests: a tenant with app registrations of every kind, a
// self-signed certificate made as a user would for an app (openssl / New-SelfSignedCertificate),
// and a token request as clients post it.

import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export const TENANT_ID = '7f3c1a2b-4d5e-4f60-8a9b-0c1d2e3f4a5b';
export const APPS = {
  full: { clientId: '11111111-1111-4111-8111-111111111111', secret: 'full-control-secret~0123456789' },
  reader: { clientId: '22222222-2222-4222-8222-222222222222', secret: 'read-all-secret~0123456789' },
  selected: { clientId: '33333333-3333-4333-8333-333333333333', secret: 'selected-secret~0123456789' },
  none: { clientId: '44444444-4444-4444-8444-444444444444', secret: 'no-permission-secret~0123456789' },
  cert: { clientId: '55555555-5555-4555-8555-555555555555' },
  public: { clientId: '66666666-6666-4666-8666-666666666666' },
} as const;

/** A certificate and its private key, with the thumbprints Entra's portal shows (hex). */
export interface AppCertificate { cert: string; key: string; sha1: string; sha256: string }

export function appCertificate(commonName = 'spemu test app'): AppCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }) as string);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer([{ name: 'commonName', value: commonName }]);
  cert.sign(forgeKey, forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  const x509 = new X509Certificate(pem);
  return { cert: pem, key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, sha1: x509.fingerprint.replace(/:/g, ''), sha256: x509.fingerprint256.replace(/:/g, '') };
}

/** Two sites with a Tasks list, three users, and the apps of APPS (the certificate app with `certificate`). */
export function identityTenant(certificate: AppCertificate) {
  const tasks = { title: 'Tasks', template: 100 };
  return {
    tenant: { name: 'fabrikam', id: TENANT_ID },
    users: [
      { upn: 'olivia@fabrikam.onmicrosoft.com', displayName: 'Olivia Owner', firstName: 'Olivia', lastName: 'Owner', password: 'pw-olivia' },
      { upn: 'mark@fabrikam.onmicrosoft.com', displayName: 'Mark Member', password: 'pw-mark' },
      { upn: 'nopass@fabrikam.onmicrosoft.com', displayName: 'No Password' },
    ],
    apps: [
      { clientId: APPS.full.clientId, displayName: 'Full control app', secrets: [APPS.full.secret], permissions: ['Sites.FullControl.All'] },
      { clientId: APPS.reader.clientId, displayName: 'Reader app', secrets: [APPS.reader.secret], permissions: ['Sites.Read.All'] },
      { clientId: APPS.selected.clientId, displayName: 'Selected app', secrets: [APPS.selected.secret], permissions: ['Sites.Selected'], sites: [{ url: '/sites/test', role: 'write' }] },
      { clientId: APPS.none.clientId, displayName: 'No permission app', secrets: [APPS.none.secret] },
      { clientId: APPS.cert.clientId, displayName: 'Certificate app', certificates: [{ pem: certificate.cert }], permissions: ['Sites.FullControl.All'] },
      { clientId: APPS.public.clientId, displayName: 'Public client', publicClient: true },
    ],
    sites: [
      { url: '/sites/test', title: 'Test', owners: ['olivia@fabrikam.onmicrosoft.com'], members: ['mark@fabrikam.onmicrosoft.com'], lists: [tasks] },
      { url: '/sites/other', title: 'Other', owners: ['olivia@fabrikam.onmicrosoft.com'], lists: [tasks] },
    ],
  };
}

/** POSTs a form to a token endpoint; the status and the JSON answer. */
export async function tokenRequest(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

/** A JWT's claims, unverified. */
export const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
