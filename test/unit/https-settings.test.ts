// The settings behind HTTPS, proxies and host-named tenants, without a server: which peers
// are trusted, how the TLS flags combine, the tenant file's `hosts`, and the certificates
// spemu makes (their extensions, reuse, renewal, and the keys' file mode).

import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import forge from 'node-forge';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { peerTrust, hostNameOf } from '../../src/pipeline/origin.ts';
import { ConfigError, resolveOptions } from '../../src/config.ts';
import { readCommandLine } from '../../src/cli/options.ts';
import { TenantFileError, validateTenant } from '../../src/tenant/validate.ts';
import { tenantHash } from '../../src/tenant/load.ts';
import { certificateNames, ensureCertificates, TLS_FILES } from '../../src/server/certificates.ts';
import { allowedHostNames } from '../../src/server/hosts.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-tls-')); dirs.push(d); return d; };

describe('--trust-proxy peers', () => {
  it('matches addresses, CIDR ranges, IPv4-mapped IPv6 peers and the named ranges', () => {
    const trust = peerTrust(['10.1.2.3', '192.168.0.0/16', 'fd00::/8', 'loopback']);
    assert.equal(trust('10.1.2.3'), true);
    assert.equal(trust('10.1.2.4'), false);
    assert.equal(trust('192.168.200.7'), true);
    assert.equal(trust('::ffff:192.168.1.1'), true);
    assert.equal(trust('fd12::1'), true);
    assert.equal(trust('127.0.0.1'), true);
    assert.equal(trust('::1'), true);
    assert.equal(trust('8.8.8.8'), false);
    assert.equal(trust(undefined), false);
  });

  it('trusts nobody when empty, and refuses what is not an address or range', () => {
    assert.equal(peerTrust([])('127.0.0.1'), false);
    for (const bad of ['example.com', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '']) assert.throws(() => peerTrust([bad]), /not an IP address/);
    assert.throws(() => resolveOptions({ trustProxy: ['proxy.local'] }), (e: Error) => e instanceof ConfigError && /--trust-proxy: 'proxy.local'/.test(e.message));
  });

  it('reads a comma-separated list from the flag or SPEMU_TRUST_PROXY', () => {
    assert.deepEqual(readCommandLine(['--trust-proxy', '127.0.0.1, 10.0.0.0/8'], {}).options.trustProxy, ['127.0.0.1', '10.0.0.0/8']);
    assert.deepEqual(readCommandLine([], { SPEMU_TRUST_PROXY: 'loopback' }).options.trustProxy, ['loopback']);
  });

  it('takes the host name of an origin without port or brackets, in lower case', () => {
    assert.equal(hostNameOf('https://Contoso.SharePoint.com:8443'), 'contoso.sharepoint.com');
    assert.equal(hostNameOf('http://[::1]:8080'), '::1');
    assert.equal(hostNameOf('http://127.0.0.1'), '127.0.0.1');
  });
});

describe('TLS flags', () => {
  it('serve plain HTTP unless asked; --https, --https-port, --cert/--key and --pfx choose HTTPS', () => {
    assert.equal(resolveOptions({}).tls, undefined);
    assert.deepEqual(resolveOptions({ https: true }).tls, { kind: 'generated' });
    const both = resolveOptions({ httpsPort: 8443 });
    assert.deepEqual([both.tls, both.httpsPort, both.port], [{ kind: 'generated' }, 8443, 8080]);
    assert.equal(resolveOptions({ https: true }).httpsPort, undefined);
    assert.deepEqual(resolveOptions({ cert: 'c.pem', key: 'k.pem' }).tls, { kind: 'pem', certFile: 'c.pem', keyFile: 'k.pem' });
    assert.deepEqual(resolveOptions({ pfx: 'a.pfx', pfxPassphrase: 'p' }).tls, { kind: 'pfx', pfxFile: 'a.pfx', passphrase: 'p' });
  });

  it('refuse combinations that cannot work', () => {
    const refused = (options: Parameters<typeof resolveOptions>[0], pattern: RegExp) =>
      assert.throws(() => resolveOptions(options), (e: Error) => e instanceof ConfigError && pattern.test(e.message));
    refused({ cert: 'c.pem' }, /--cert and --key go together/);
    refused({ key: 'k.pem' }, /--cert and --key go together/);
    refused({ cert: 'c.pem', key: 'k.pem', pfx: 'a.pfx' }, /not both/);
    refused({ pfxPassphrase: 'p' }, /needs --pfx/);
    refused({ port: 8443, httpsPort: 8443 }, /must differ from --port/);
    refused({ httpsPort: 70000 }, /--https-port must be a whole number/);
  });

  it('come from flags and SPEMU_ variables', () => {
    const { options } = readCommandLine(['--https', '--https-port', '8443', '--cert', 'c.pem', '--key', 'k.pem'], { SPEMU_PFX_PASSPHRASE: 'x' });
    assert.equal(options.https, true);
    assert.equal(options.httpsPort, 8443);
    assert.equal(options.cert, 'c.pem');
    assert.equal(options.key, 'k.pem');
    assert.equal(options.pfxPassphrase, 'x');
    assert.equal(readCommandLine([], { SPEMU_HTTPS: '1' }).options.https, true);
  });
});

describe('tenant host names', () => {
  const tenant = (hosts: unknown) => ({
    tenant: { name: 'contoso', hosts },
    users: [{ upn: 'alice@contoso.onmicrosoft.com', displayName: 'Alice' }],
    sites: [{ url: '/sites/dev', title: 'Dev', owners: ['alice@contoso.onmicrosoft.com'] }],
  });

  it('accepts host names, and none', () => {
    validateTenant(tenant(['contoso.sharepoint.com', 'contoso-my.sharepoint.com', 'intranet']));
    validateTenant(tenant([]));
  });

  it('refuses URLs, ports, paths, bad labels and duplicates in any case', () => {
    for (const bad of ['https://contoso.sharepoint.com', 'contoso.sharepoint.com:443', 'contoso.sharepoint.com/sites', 'a b', '-contoso.com', 'contoso..com', '']) {
      assert.throws(() => validateTenant(tenant([bad])), (e: Error) => e instanceof TenantFileError && e.problems.some((p) => p.path === '/tenant/hosts/0'), bad);
    }
    assert.throws(() => validateTenant(tenant(['Contoso.SharePoint.com', 'contoso.sharepoint.com'])),
      (e: Error) => e instanceof TenantFileError && e.problems.some((p) => p.path === '/tenant/hosts/1' && /duplicate host name/.test(p.message)));
    assert.throws(() => validateTenant(tenant('contoso.sharepoint.com')), TenantFileError);
  });

  it('are left out of the tenant hash: a seed that changes only them is the same tenant', () => {
    const plain = tenant(undefined) as unknown as Parameters<typeof tenantHash>[0];
    delete (plain.tenant as { hosts?: unknown }).hosts;
    const named = tenant(['contoso.sharepoint.com']) as unknown as Parameters<typeof tenantHash>[0];
    assert.equal(tenantHash(named), tenantHash(plain));
    const renamed = { ...plain, tenant: { name: 'fabrikam' } };
    assert.notEqual(tenantHash(renamed), tenantHash(plain));
  });

  it('allow the loopback names and a specific --host besides the tenant names, or every host when none', () => {
    assert.equal(allowedHostNames([], '127.0.0.1'), undefined);
    assert.deepEqual([...allowedHostNames(['Contoso.sharepoint.com'], '0.0.0.0')!].sort(), ['127.0.0.1', '::1', 'contoso.sharepoint.com', 'localhost']);
    assert.ok(allowedHostNames(['contoso.sharepoint.com'], '192.168.1.20')!.has('192.168.1.20'));
  });
});

describe('the certificates spemu makes', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const names = certificateNames(['contoso.sharepoint.com']);

  it('are a CA (CA:true, keyCertSign) and a server certificate it signed for the loopback names and the tenant hosts', () => {
    const dir = tempDir();
    const made = ensureCertificates(dir, names, now);
    const ca = new X509Certificate(made.ca);
    const server = new X509Certificate(readFileSync(join(dir, TLS_FILES.cert)));
    assert.equal(ca.ca, true);
    assert.equal(server.ca, false);
    assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey));
    assert.equal(server.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:contoso.sharepoint.com');
    // keyCertSign on the CA, critical; serverAuth (id-kp-serverAuth) on the server's.
    const caUsage = forge.pki.certificateFromPem(made.ca).getExtension('keyUsage') as { keyCertSign?: boolean; critical?: boolean };
    assert.equal(caUsage.keyCertSign, true);
    assert.equal(caUsage.critical, true);
    assert.deepEqual(server.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.ok(new Date(server.validTo).getTime() - now.getTime() <= 398 * 86_400_000);
    assert.ok(new Date(ca.validTo).getTime() - now.getTime() > 9 * 365 * 86_400_000);
    assert.equal(made.caPath, join(dir, TLS_FILES.caCert));
    // The chain served: the server certificate, then the CA's.
    assert.equal(made.cert, readFileSync(join(dir, TLS_FILES.cert), 'utf8') + made.ca);
  });

  it('keep their keys readable by the owner only, and never in the certificate files', () => {
    const dir = tempDir();
    ensureCertificates(dir, names, now);
    for (const key of [TLS_FILES.key, TLS_FILES.caKey]) assert.equal(statSync(join(dir, key)).mode & 0o777, 0o600, key);
    for (const cert of [TLS_FILES.cert, TLS_FILES.caCert]) assert.doesNotMatch(readFileSync(join(dir, cert), 'utf8'), /PRIVATE KEY/);
  });

  it('are reused while valid for the same names; the server one is remade, by the same CA, when the names change or its end nears', () => {
    const dir = tempDir();
    const first = ensureCertificates(dir, names, now);
    const again = ensureCertificates(dir, [...names].reverse(), new Date('2026-06-01T00:00:00Z'));
    assert.equal(again.made, false);
    assert.equal(again.cert, first.cert);
    const renamed = ensureCertificates(dir, certificateNames(['fabrikam.sharepoint.com']), now);
    assert.equal(renamed.made, true);
    assert.equal(renamed.ca, first.ca);
    assert.match(new X509Certificate(renamed.cert).subjectAltName!, /DNS:fabrikam\.sharepoint\.com/);
    const late = ensureCertificates(dir, certificateNames(['fabrikam.sharepoint.com']), new Date(now.getTime() + 380 * 86_400_000));
    assert.equal(late.made, true);
    assert.equal(late.ca, first.ca);
    assert.notEqual(late.cert, renamed.cert);
  });

  it('are remade when the key on disk is not the certificate\'s', () => {
    const dir = tempDir();
    const first = ensureCertificates(dir, names, now);
    const other = ensureCertificates(tempDir(), names, now);
    // Another server key under this CA's server certificate: the pair is unusable.
    writeFileSync(join(dir, TLS_FILES.key), other.key);
    const next = ensureCertificates(dir, names, now);
    assert.equal(next.made, true);
    assert.equal(next.ca, first.ca);
    assert.ok(new X509Certificate(next.cert).checkPrivateKey(createPrivateKey(next.key)));
  });

  it('are made in memory for a server without a workspace folder', () => {
    const made = ensureCertificates(undefined, names, now);
    assert.equal(made.caPath, undefined);
    assert.ok(new X509Certificate(made.cert).checkIssued(new X509Certificate(made.ca)));
  });
});
