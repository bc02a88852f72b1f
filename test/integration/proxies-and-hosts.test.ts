// Absolute URLs behind a reverse proxy (--trust-proxy: Forwarded and X-Forwarded-* believed
// from the named peers only) and host-named tenants (tenant.hosts: only those names, the
// loopback ones and the bound address are answered; any other gets HTTP.sys's 400).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { minimalTenant, useTestServer } from '../helpers/server.ts';
import { tlsRequest } from '../helpers/tls-request.ts';

const VERBOSE = 'application/json;odata=verbose';
const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';

/** The `__metadata.uri` of the site's web, as the server writes it for these request headers. */
async function webUri(siteUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await tlsRequest(`${siteUrl}/_api/web?$select=Title`, { headers: { Accept: VERBOSE, ...headers } });
  assert.equal(res.status, 200, res.text);
  return res.json().d.__metadata.uri;
}

const FORWARDED_HEADERS = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'sp.example.com' };

describe('--trust-proxy naming this peer (127.0.0.1)', () => {
  const context = useTestServer({ trustProxy: ['127.0.0.1'] });

  it('X-Forwarded-Proto and X-Forwarded-Host make the links', async () => {
    assert.equal(await webUri(context.server.site('/sites/dev'), FORWARDED_HEADERS), 'https://sp.example.com/sites/dev/_api/Web');
  });

  it('Forwarded (RFC 7239) does too, and wins over X-Forwarded-*', async () => {
    const uri = await webUri(context.server.site('/sites/dev'), { Forwarded: 'for=10.0.0.9;proto=https;host="portal.example.com:8443"', ...FORWARDED_HEADERS });
    assert.equal(uri, 'https://portal.example.com:8443/sites/dev/_api/Web');
  });

  it('of several proxies\' values, the last (the trusted peer\'s own) counts', async () => {
    const uri = await webUri(context.server.site('/sites/dev'), { 'X-Forwarded-Proto': 'http, https', 'X-Forwarded-Host': 'spoofed.example, sp.example.com' });
    assert.equal(uri, 'https://sp.example.com/sites/dev/_api/Web');
  });

  it('paging links follow too', async () => {
    const res = await tlsRequest(`${context.server.site('/sites/dev')}/_api/web/lists/getbytitle('Tasks')/items?$top=1&$select=Id`, { headers: { Accept: VERBOSE, ...FORWARDED_HEADERS } });
    assert.ok(res.json().d.__next.startsWith('https://sp.example.com/sites/dev/_api/'), res.json().d.__next);
  });

  it('a host that is not a host (spaces, a path) is not believed', async () => {
    const uri = await webUri(context.server.site('/sites/dev'), { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example/phish' });
    assert.equal(uri, `${new URL(context.server.url).origin.replace('http:', 'https:')}/sites/dev/_api/Web`);
  });
});

describe('without --trust-proxy', () => {
  const context = useTestServer({ seed: minimalTenant() });

  it('Forwarded and X-Forwarded-* are ignored: links name the host and scheme the request came in on', async () => {
    const site = context.server.site('/sites/test');
    assert.equal(await webUri(site, FORWARDED_HEADERS), `${site}/_api/Web`);
    assert.equal(await webUri(site, { Forwarded: 'proto=https;host=sp.example.com' }), `${site}/_api/Web`);
  });
});

describe('--trust-proxy naming other peers only', () => {
  const context = useTestServer({ seed: minimalTenant(), trustProxy: ['10.0.0.0/8', '::ffff:10.1.1.1'] });

  it('ignores the headers from this one', async () => {
    const site = context.server.site('/sites/test');
    assert.equal(await webUri(site, FORWARDED_HEADERS), `${site}/_api/Web`);
  });
});

describe('a host-named tenant', () => {
  const tenant = { ...minimalTenant(), tenant: { name: 'fabrikam', hosts: ['fabrikam.sharepoint.com', 'fabrikam-my.sharepoint.com'] } };
  const context = useTestServer({ seed: tenant, trustProxy: ['127.0.0.1'] });
  const port = () => new URL(context.server.url).port;
  /** A request as a client whose hosts file maps `name` to 127.0.0.1 sends it. */
  const asHost = (name: string, path: string, headers: Record<string, string> = {}) =>
    tlsRequest(`http://${name}:${port()}${path}`, { resolveToLoopback: [name], headers: { Accept: VERBOSE, ...headers } });

  it('answers its host names, writing links with them', async () => {
    for (const name of ['fabrikam.sharepoint.com', 'fabrikam-my.sharepoint.com']) {
      const res = await asHost(name, '/sites/test/_api/web?$select=Title');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json().d.__metadata.uri, `http://${name}:${port()}/sites/test/_api/Web`);
    }
    // Host names are compared without regard to case; links keep the case the client sent.
    const upper = await asHost('fabrikam.sharepoint.com', '/sites/test/_api/web', { Host: `FABRIKAM.SharePoint.com:${port()}` });
    assert.equal(upper.status, 200);
  });

  it('answers the loopback names, so local tools keep working', async () => {
    for (const name of ['127.0.0.1', 'localhost']) assert.equal((await asHost(name, '/sites/test/_api/web')).status, 200, name);
    const ipv6 = await tlsRequest(`${context.server.site('/sites/test')}/_api/web`, { headers: { Host: `[::1]:${port()}` } });
    assert.equal(ipv6.status, 200);
  });

  it('refuses any other host with 400 Invalid Hostname, as IIS does, before authenticating', async () => {
    const res = await tlsRequest(`${context.server.site('/sites/test')}/_api/web`, { headers: { Host: `contoso.sharepoint.com:${port()}` } });
    assert.equal(res.status, 400);
    assert.equal(res.headers['content-type'], 'text/html; charset=us-ascii');
    assert.match(res.text, /Bad Request - Invalid Hostname/);
    assert.match(res.text, /HTTP Error 400\. The request hostname is invalid\./);
    assert.equal(res.headers['www-authenticate'], undefined);
    const login = await tlsRequest(`${context.server.url}/_spemu/login`, { headers: { Host: 'other.example' } });
    assert.equal(login.status, 400);
  });

  it('checks the host a trusted proxy forwards, not its own', async () => {
    const forwarded = await tlsRequest(`${context.server.site('/sites/test')}/_api/web`, { headers: { 'X-Forwarded-Host': 'fabrikam.sharepoint.com', 'X-Forwarded-Proto': 'https', Accept: VERBOSE } });
    assert.equal(forwarded.status, 200);
    assert.equal(forwarded.json().d.__metadata.uri, 'https://fabrikam.sharepoint.com/sites/test/_api/Web');
    const other = await tlsRequest(`${context.server.site('/sites/test')}/_api/web`, { headers: { 'X-Forwarded-Host': 'contoso.sharepoint.com' } });
    assert.equal(other.status, 400);
  });

  it('answers spemu\'s health check under any host (probes address containers by IP)', async () => {
    const res = await tlsRequest(`${context.server.url}/_spemu/health`, { headers: { Host: '10.1.2.3:8080' } });
    assert.equal(res.status, 200);
  });

  it('authenticates as before under its names', async () => {
    const res = await asHost('fabrikam.sharepoint.com', '/sites/test/_api/web/currentuser?$select=Email', {
      Authorization: `Basic ${Buffer.from(`${OLIVIA}:pw-olivia`).toString('base64')}`,
    });
    assert.equal(res.status, 200);
    assert.equal(res.json().d.Email, 'olivia@fabrikam.com');
  });
});

describe('a tenant that names no hosts (the demo)', () => {
  const context = useTestServer({ seed: minimalTenant() });

  it('answers any host', async () => {
    const res = await tlsRequest(`${context.server.site('/sites/test')}/_api/web`, { headers: { Host: 'anything.example' } });
    assert.equal(res.status, 200);
  });
});
