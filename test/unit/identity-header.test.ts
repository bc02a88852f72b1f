// `spemu identity-header` and the header it prints: the workspace's own, stable across calls,
// different for another secret, and compared in constant time by the endpoint.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityHeaderCommand } from '../../src/cli/identity-header.ts';
import { isManagedIdentityHeader, managedIdentityHeader } from '../../src/identity/managed-identity.ts';
import { resolveSecret } from '../../src/identity/secret.ts';
import { banner } from '../../src/cli/banner.ts';

describe('spemu identity-header', () => {
  it('prints the header of the workspace the server uses, the same every time, another for another workspace', () => {
    const a = mkdtempSync(join(tmpdir(), 'spemu-ih-'));
    const b = mkdtempSync(join(tmpdir(), 'spemu-ih-'));
    try {
      const header = identityHeaderCommand(['--data', a], {});
      assert.equal(header, managedIdentityHeader(resolveSecret({ dataDir: a })));
      assert.equal(identityHeaderCommand([], { SPEMU_DATA: a }), header);
      assert.notEqual(identityHeaderCommand(['--data', b], {}), header);
      assert.match(header, /^[A-Za-z0-9_-]{43}$/);
      // The header is not the secret itself.
      assert.ok(!new TextDecoder().decode(resolveSecret({ dataDir: a })).includes(header));
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });

  it('follows --token-secret, and the endpoint accepts only the exact header', () => {
    const secret = 'y'.repeat(40);
    const header = identityHeaderCommand(['--token-secret', secret], {});
    const key = new TextEncoder().encode(secret);
    assert.equal(isManagedIdentityHeader(key, header), true);
    for (const wrong of [undefined, '', header.slice(1), `${header}=`, header.toUpperCase()]) assert.equal(isManagedIdentityHeader(key, wrong), false, String(wrong));
  });

  it("the banner shows IDENTITY_ENDPOINT, the CA and how to get the header, never the header's value", () => {
    const server = {
      url: 'https://127.0.0.1:8080', tenant: { name: 'contoso', sites: [] }, caPath: '/w/.spemu/tls/ca.pem',
      // A RunningServer carries the header; the banner must not print it.
      managedIdentity: { name: 'alice@contoso.onmicrosoft.com', endpoint: 'https://127.0.0.1:8080/_spemu/managed-identity/token', header: 'THE-HEADER-VALUE' },
    };
    const text = banner(server, undefined);
    assert.match(text, /export IDENTITY_ENDPOINT=https:\/\/127\.0\.0\.1:8080\/_spemu\/managed-identity\/token/);
    assert.match(text, /export IDENTITY_HEADER=\$\(spemu identity-header\)/);
    assert.match(text, /export NODE_EXTRA_CA_CERTS=\/w\/\.spemu\/tls\/ca\.pem/);
    assert.match(text, /tokens for alice@contoso\.onmicrosoft\.com/);
    assert.ok(!text.includes('THE-HEADER-VALUE'));
    assert.ok(!banner({ ...server, managedIdentity: undefined }, undefined).includes('IDENTITY_ENDPOINT'));
  });
});
