// The workspace's RS256 signing keys: made once and kept (mode 0600), rotated with the old
// public key still verifying for a day, then dropped; and Entra-shaped tokens they sign.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSigningKeys, rotateSigningKey, RETIRED_KEY_KEPT_MS, SIGNING_KEYS_FILE } from '../../src/identity/signing-keys.ts';
import { issueAccessToken, verifyEntraToken } from '../../src/identity/entra-tokens.ts';
import { TokenError } from '../../src/identity/tokens.ts';
import { rotateCommand } from '../../src/cli/rotate-signing-key.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const workspace = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-keys-')); dirs.push(d); return d; };
const authority = { origin: 'https://127.0.0.1:8443', tenantId: '7f3c1a2b-4d5e-4f60-8a9b-0c1d2e3f4a5b' };

async function appToken(keys: ReturnType<typeof loadSigningKeys>, now: Date): Promise<string> {
  return (await issueAccessToken({
    keys, authority, resource: authority.origin, now,
    subject: { kind: 'app', clientId: 'c', appDisplayName: 'App', objectId: 'o', roles: ['Sites.Read.All'], clientAuthentication: 'secret' },
  })).accessToken;
}
const checks = (keys: ReturnType<typeof loadSigningKeys>, now: Date) => ({ keys, now, issuer: (i: string) => i === `${authority.origin}/${authority.tenantId}/`, audience: (a: string) => a === authority.origin });

describe('signing keys', () => {
  it('are made once into the workspace, readable by the owner only, and read back the same', () => {
    const dir = workspace();
    const first = loadSigningKeys(dir, new Date());
    const again = loadSigningKeys(dir, new Date());
    assert.equal(first.active.kid, again.active.kid);
    if (process.platform !== 'win32') assert.equal(statSync(join(dir, SIGNING_KEYS_FILE)).mode & 0o777, 0o600);
    assert.equal(first.jwks(new Date()).keys.length, 1);
    assert.equal((first.jwks(new Date()).keys[0] as Record<string, unknown>).d, undefined);
  });

  it('rotate: the new key signs, the old one still verifies its tokens for a day, then is dropped', async () => {
    const dir = workspace();
    const t0 = new Date('2026-01-01T00:00:00Z');
    const before = loadSigningKeys(dir, t0);
    const oldToken = await appToken(before, t0);
    const message = rotateCommand(['--data', dir], {}, t0);
    assert.match(message, /^New signing key \S+ in /);
    const after1 = loadSigningKeys(dir, t0);
    assert.notEqual(after1.active.kid, before.active.kid);
    assert.deepEqual(after1.jwks(t0).keys.map((k) => k.kid).sort(), [before.active.kid, after1.active.kid].sort());
    const principal = await verifyEntraToken(oldToken, checks(after1, new Date(t0.getTime() + 30 * 60_000)));
    assert.equal(principal.kind, 'app');
    const later = new Date(t0.getTime() + RETIRED_KEY_KEPT_MS + 1000);
    assert.deepEqual(after1.jwks(later).keys.map((k) => k.kid), [after1.active.kid]);
    // A second rotation after that drops the long-retired key from the file too.
    rotateSigningKey(dir, later);
    assert.equal(loadSigningKeys(dir, later).jwks(later).keys.length, 2);
  });

  it('a running server picks up a rotation made by another process (the file is read again when it changes)', () => {
    const dir = workspace();
    const running = loadSigningKeys(dir, new Date(), 0);
    const before = running.active.kid;
    const fresh = rotateSigningKey(dir, new Date());
    assert.equal(running.active.kid, fresh);
    assert.deepEqual(running.jwks(new Date()).keys.map((k) => k.kid).sort(), [before, fresh].sort());
  });

  it('verifyEntraToken refuses a token of a key that is not ours', async () => {
    const now = new Date();
    const mine = loadSigningKeys(undefined, now);
    const theirs = loadSigningKeys(undefined, now);
    await assert.rejects(verifyEntraToken(await appToken(theirs, now), checks(mine, now)), (e: unknown) => e instanceof TokenError && /^3000006;/.test(e.diagnostics));
  });
});
