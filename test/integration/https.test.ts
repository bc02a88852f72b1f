// HTTPS, as clients use it: spemu's own CA trusted by the client (node's https with `ca`,
// and an unmodified PnPjs through NODE_EXTRA_CA_CERTS), a certificate of the user's
// (--cert/--key, --pfx), HTTP and HTTPS side by side, absolute URLs with the scheme and host
// the request came in on, and the certificate kept in the workspace across restarts.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';
import { startServer } from '../../src/index.ts';
import { ConfigError } from '../../src/config.ts';
import { DEMO_TENANT, firstOwner, minimalTenant, startTestServer, testDatabase, useTestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { tlsRequest } from '../helpers/tls-request.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERBOSE = 'application/json;odata=verbose';
const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-https-')); dirs.push(d); return d; };

/** A self-signed certificate for 127.0.0.1 and localhost, made as a user would with openssl. */
function userCertificate(): { cert: string; key: string; forgeCert: forge.pki.Certificate; forgeKey: forge.pki.rsa.PrivateKey } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }) as string);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [{ name: 'commonName', value: 'my own test certificate' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, forgeCert: cert, forgeKey };
}

/** Fails unless the request is refused for an untrusted certificate. */
async function refusedAsUntrusted(url: string, ca?: string): Promise<void> {
  await assert.rejects(tlsRequest(url, ca ? { ca } : {}), (e: NodeJS.ErrnoException) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(e.code ?? ''));
}

describe('--https with the certificate spemu makes', () => {
  let data = '';
  const context = useTestServer(() => { data = tempDir(); return { https: true, data }; });
  const running = () => context.server;

  it('serves only HTTPS on the port, with a certificate clients trusting the CA in <data>/tls/ca.pem accept', async () => {
    assert.match(running().url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(join(data, 'tls', 'ca.pem'), 'utf8');
    const res = await tlsRequest(`${context.server.site()}/_api/web?$select=Title`, { ca });
    assert.equal(res.status, 200);
    assert.equal(res.json().Title, 'Dev');
    // The system's store alone does not know spemu's CA; and plain HTTP gets no answer on a TLS port.
    await refusedAsUntrusted(`${context.server.site()}/_api/web`);
    await assert.rejects(tlsRequest(`${context.server.site().replace('https:', 'http:')}/_api/web`));
  });

  it('answers for localhost too (a name of the certificate)', async () => {
    const ca = readFileSync(join(data, 'tls', 'ca.pem'), 'utf8');
    const res = await tlsRequest(`${context.server.site().replace('127.0.0.1', 'localhost')}/_api/web?$select=Title`, { ca });
    assert.equal(res.status, 200);
  });

  it('writes odata.id, __metadata.uri and __next with https and the host the request came in on', async () => {
    const ca = readFileSync(join(data, 'tls', 'ca.pem'), 'utf8');
    const light = await tlsRequest(`${context.server.site()}/_api/web/lists/getbytitle('Tasks')/items?$top=2&$select=Id`, { ca, headers: { Accept: 'application/json;odata=minimalmetadata' } });
    const origin = new URL(context.server.url).origin;
    assert.ok(light.json()['odata.nextLink'].startsWith(`${origin}/sites/dev/_api/`), light.json()['odata.nextLink']);
    const verbose = await tlsRequest(`${context.server.site().replace('127.0.0.1', 'localhost')}/_api/web/lists/getbytitle('Tasks')/items?$top=2&$select=Id,EncodedAbsUrl`, { ca, headers: { Accept: VERBOSE } });
    const d = verbose.json().d;
    const localhost = origin.replace('127.0.0.1', 'localhost');
    assert.ok(d.__next.startsWith(`${localhost}/sites/dev/_api/`), d.__next);
    assert.ok(d.results[0].__metadata.uri.startsWith(`${localhost}/sites/dev/_api/`), d.results[0].__metadata.uri);
    assert.ok(d.results[0].EncodedAbsUrl.startsWith(`${localhost}/sites/dev/Lists/Tasks/`), d.results[0].EncodedAbsUrl);
    const info = await tlsRequest(`${context.server.site()}/_api/contextinfo`, { ca, method: 'POST', headers: { Accept: VERBOSE } });
    assert.equal(info.json().d.GetContextWebInformation.SiteFullUrl, `${origin}/sites/dev`);
  });

  it('lets an unmodified PnPjs read and write items, trusting the CA through NODE_EXTRA_CA_CERTS', async () => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'test/fixtures/pnp-over-https.ts'), context.server.site(), 'Written over HTTPS'], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(data, 'tls', 'ca.pem') },
    });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.stderr.on('data', (d) => { out += String(d); });
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(code, 0, out);
    const read = JSON.parse(out.trim().split('\n').pop()!);
    assert.equal(read.webTitle, 'Dev');
    assert.equal(read.webUrl, context.server.site());
    assert.equal(read.item.Title, 'Written over HTTPS');
    assert.equal(read.pageSize, 2);
    // The write is really there, read over another connection.
    const ca = readFileSync(join(data, 'tls', 'ca.pem'), 'utf8');
    const check = await tlsRequest(`${context.server.site()}/_api/web/lists/getbytitle('Tasks')/items(${read.item.Id})?$select=Title`, { ca });
    assert.equal(check.json().Title, 'Written over HTTPS');
  });
});

describe('HTTP and HTTPS side by side (--https-port)', () => {
  it('serve the same tenant, each writing links with its own scheme and port', async () => {
    const running = await startServer({ ...(await serverDatabase()), data: tempDir(), port: 0, httpsPort: 0, logLevel: 'silent', seed: DEMO_TENANT, anonymousUser: firstOwner() });
    try {
      assert.match(running.url, /^http:\/\//);
      assert.match(running.httpsUrl!, /^https:\/\//);
      assert.notEqual(running.port, running.httpsPort);
      const plain = await tlsRequest(`${running.url}/sites/dev/_api/web?$select=Title`, { headers: { Accept: VERBOSE } });
      assert.equal(plain.json().d.__metadata.uri, `${running.url}/sites/dev/_api/Web`);
      const secure = await tlsRequest(`${running.httpsUrl}/sites/dev/_api/web?$select=Title`, { ca: running.ca!, headers: { Accept: VERBOSE } });
      assert.equal(secure.json().d.__metadata.uri, `${running.httpsUrl}/sites/dev/_api/Web`);
      // A write through one is read through the other.
      const added = await tlsRequest(`${running.httpsUrl}/sites/dev/_api/web/lists/getbytitle('Tasks')/items`, {
        ca: running.ca!, method: 'POST', body: JSON.stringify({ Title: 'from https' }), headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(added.status, 201, added.text);
      const read = await tlsRequest(`${running.url}/sites/dev/_api/web/lists/getbytitle('Tasks')/items(${added.json().Id})?$select=Title`);
      assert.equal(read.json().Title, 'from https');
    } finally {
      await running.close();
    }
  });
});

/** The leg's database for a server started here (closed by the caller; dropped after the file). */
async function serverDatabase(): Promise<{ db: string; tokenSecret?: string }> {
  const database = await testDatabase();
  after(() => database.drop());
  return testBackend() === 'sqlite' ? { db: database.db } : { db: database.db, tokenSecret: 'x'.repeat(32) };
}

describe('a certificate of the user\'s', () => {
  it('--cert/--key: served as given; spemu makes none', async () => {
    const dir = tempDir();
    const mine = userCertificate();
    writeFileSync(join(dir, 'cert.pem'), mine.cert);
    writeFileSync(join(dir, 'key.pem'), mine.key, { mode: 0o600 });
    const server = await startTestServer({ cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), data: join(dir, 'ws') });
    try {
      const res = await tlsRequest(`${server.site()}/_api/web?$select=Title`, { ca: mine.cert });
      assert.equal(res.status, 200);
      assert.equal(res.json().Title, 'Dev');
      assert.throws(() => statSync(join(dir, 'ws', 'tls')), /ENOENT/);
    } finally {
      await server.close();
    }
  });

  it('--pfx with its passphrase', async () => {
    const dir = tempDir();
    const mine = userCertificate();
    const p12 = forge.pkcs12.toPkcs12Asn1(mine.forgeKey, [mine.forgeCert], 'pfx-secret', { algorithm: '3des' });
    writeFileSync(join(dir, 'mine.pfx'), Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
    const server = await startTestServer({ pfx: join(dir, 'mine.pfx'), pfxPassphrase: 'pfx-secret' });
    try {
      const res = await tlsRequest(`${server.site()}/_api/web?$select=Title`, { ca: mine.cert });
      assert.equal(res.status, 200);
      const served = await new Promise<X509Certificate>((done, fail) => {
        import('node:tls').then(({ connect }) => {
          const socket = connect({ host: '127.0.0.1', port: Number(new URL(server.url).port), ca: mine.cert }, () => {
            done(new X509Certificate(socket.getPeerX509Certificate()!.raw));
            socket.end();
          });
          socket.on('error', fail);
        }, fail);
      });
      assert.equal(served.subject, 'CN=my own test certificate');
    } finally {
      await server.close();
    }
  });

  it('refuses at start a key that is not the certificate\'s, a wrong passphrase and a missing file, naming the file', async () => {
    const dir = tempDir();
    const mine = userCertificate();
    const other = userCertificate();
    writeFileSync(join(dir, 'cert.pem'), mine.cert);
    writeFileSync(join(dir, 'other-key.pem'), other.key);
    const p12 = forge.pkcs12.toPkcs12Asn1(mine.forgeKey, [mine.forgeCert], 'right', { algorithm: '3des' });
    writeFileSync(join(dir, 'mine.pfx'), Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
    const refused = async (options: object, pattern: RegExp) => {
      await assert.rejects(startTestServer(options), (e: Error) => e instanceof ConfigError && pattern.test(e.message) && !/PRIVATE KEY/.test(e.message));
    };
    await refused({ cert: join(dir, 'cert.pem'), key: join(dir, 'other-key.pem') }, /other-key\.pem' cannot serve HTTPS/);
    await refused({ pfx: join(dir, 'mine.pfx'), pfxPassphrase: 'wrong' }, /mine\.pfx' cannot serve HTTPS/);
    await refused({ cert: join(dir, 'cert.pem'), key: join(dir, 'missing.pem') }, /--key '.*missing\.pem' cannot be read: ENOENT/);
  });
});

describe('the generated certificate across restarts', () => {
  it('is reused while the host names stay, remade (by the same CA) when the tenant names others, keys 0600', async () => {
    const data = tempDir();
    const database = testBackend() === 'sqlite' ? { db: join(data, 'spemu.db') } : { db: (await serverDatabase()).db };
    const tenant = (hosts: string[]) => ({ ...minimalTenant(), tenant: { name: 'fabrikam', hosts } });
    const start = (hosts: string[]) => startServer({ ...database, data, https: true, port: 0, logLevel: 'silent', seed: tenant(hosts) });
    const files = () => ({ ca: readFileSync(join(data, 'tls', 'ca.pem'), 'utf8'), cert: readFileSync(join(data, 'tls', 'server.pem'), 'utf8') });

    let running = await start(['contoso.sharepoint.com']);
    await running.close();
    const first = files();
    assert.match(new X509Certificate(first.cert).subjectAltName!, /DNS:contoso\.sharepoint\.com/);
    for (const key of ['server-key.pem', 'ca-key.pem']) assert.equal(statSync(join(data, 'tls', key)).mode & 0o777, 0o600);

    running = await start(['contoso.sharepoint.com']);
    await running.close();
    assert.deepEqual(files(), first);

    // Only the host names changed: the same tenant (no --reset needed), a new server certificate.
    running = await start(['contoso.sharepoint.com', 'contoso-my.sharepoint.com']);
    try {
      assert.deepEqual(running.hostNames, ['contoso.sharepoint.com', 'contoso-my.sharepoint.com']);
      const second = files();
      assert.equal(second.ca, first.ca);
      assert.notEqual(second.cert, first.cert);
      assert.match(new X509Certificate(second.cert).subjectAltName!, /DNS:contoso-my\.sharepoint\.com/);
      const res = await tlsRequest(`${running.url}/sites/test/_api/web?$select=Title`, { ca: second.ca, headers: { Authorization: `Basic ${Buffer.from('olivia@fabrikam.onmicrosoft.com:pw-olivia').toString('base64')}` } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json().Title, 'Test');
    } finally {
      await running.close();
    }
  });
});
