// The RSA keys spemu signs Entra-shaped tokens with (RS256), kept in the workspace as
// `<data>/identity/signing-keys.json` (mode 0600), made once. Rotating adds a new key that
// signs from then on; the keys it replaces stay in the JWKS, for checking tokens they signed,
// until RETIRED_KEY_KEPT_MS after they stopped signing (longer than any token lives). Every
// instance sharing the workspace reads the same file, and reads it again when it changes
// (checked at most every RECHECK_MS), so a rotation reaches running servers within seconds.
// Without a workspace (an in-memory server), one key is made for the process.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SIGNING_KEYS_FILE = join('identity', 'signing-keys.json');

/** How long a replaced key still verifies: beyond the longest access token (and clock skew). */
export const RETIRED_KEY_KEPT_MS = 24 * 60 * 60 * 1000;

interface StoredKey {
  kid: string;
  created: string;
  /** When it stopped signing; absent for the key that signs. */
  retired?: string;
  /** PKCS#8 PEM. */
  privateKey: string;
}

interface KeyFile { keys: StoredKey[] }

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as a JWK, with kid, use and alg. */
  jwk: JsonWebKey & { kid: string; use: 'sig'; alg: 'RS256'; kty: string };
  retired?: Date;
}

/** How often a server looks whether the key file changed (a rotation by another process). */
export const RECHECK_MS = 10_000;

export class SigningKeys {
  #keys: SigningKey[] | undefined;
  /** Makes the keys on first use: a process's own key, which takes an RSA key generation (~0.1 s) a server may never need. */
  #make: (() => SigningKey[]) | undefined;
  #checkedAt = Date.now();
  #mtimeMs: number | undefined;

  /** `file`: where the keys came from, read again when it changes; none for a process's own key. */
  constructor(keys: SigningKey[] | (() => SigningKey[]), private readonly file?: string, private readonly recheckMs = RECHECK_MS) {
    if (typeof keys === 'function') this.#make = keys;
    else this.#keys = SigningKeys.#checked(keys);
    if (file) this.#mtimeMs = statSync(file).mtimeMs;
  }

  static #checked(keys: SigningKey[]): SigningKey[] {
    if (!keys.some((k) => !k.retired)) throw new Error('no active signing key');
    return keys;
  }

  /** The keys, read again from the file if it changed since it was last looked at (a broken file keeps the old ones). */
  #current(): SigningKey[] {
    if (!this.#keys) this.#keys = SigningKeys.#checked(this.#make!());
    if (!this.file || Date.now() - this.#checkedAt < this.recheckMs) return this.#keys;
    this.#checkedAt = Date.now();
    try {
      const mtimeMs = statSync(this.file).mtimeMs;
      if (mtimeMs !== this.#mtimeMs) {
        this.#keys = readKeyFile(this.file).keys.map(toSigningKey);
        this.#mtimeMs = mtimeMs;
      }
    } catch { /* keep serving with the keys already read */ }
    return this.#keys;
  }

  /** The key that signs new tokens. */
  get active(): SigningKey {
    return this.#current().find((k) => !k.retired)!;
  }

  /** The keys that still verify at `now`: the active one and those retired less than RETIRED_KEY_KEPT_MS ago. */
  verifying(now: Date): SigningKey[] {
    return this.#current().filter((k) => !k.retired || now.getTime() - k.retired.getTime() < RETIRED_KEY_KEPT_MS);
  }

  /** The key with this id, if it still verifies at `now`. */
  byKid(kid: string, now: Date): SigningKey | undefined {
    return this.verifying(now).find((k) => k.kid === kid);
  }

  /** The JWKS document (`{"keys":[…]}`): the public halves only. */
  jwks(now: Date): { keys: SigningKey['jwk'][] } {
    return { keys: this.verifying(now).map((k) => k.jwk) };
  }
}

/** RFC 7638 thumbprint of an RSA public key: its kid. */
function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url');
}

function newStoredKey(now: Date): StoredKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid: thumbprint(createPublicKey(privateKey)), created: now.toISOString(), privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

function toSigningKey(stored: StoredKey): SigningKey {
  const privateKey = createPrivateKey(stored.privateKey);
  const publicKey = createPublicKey(privateKey);
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: stored.kid, use: 'sig' as const, alg: 'RS256' as const } as SigningKey['jwk'];
  return { kid: stored.kid, privateKey, publicKey, jwk, ...(stored.retired ? { retired: new Date(stored.retired) } : {}) };
}

function writeKeyFile(file: string, content: KeyFile, flag: 'wx' | 'w'): void {
  const text = `${JSON.stringify(content, null, 2)}\n`;
  if (flag === 'wx') {
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    return;
  }
  // Replace atomically: a reader never sees half a file.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}

function readKeyFile(file: string): KeyFile {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  if (!Array.isArray(parsed.keys) || !parsed.keys.some((k) => !k.retired)) throw new Error(`${file} holds no active signing key; delete it to have a new one made.`);
  return parsed;
}

/** The workspace's keys (made on first use); without a workspace, a key for this process only. */
export function loadSigningKeys(dataDir: string | undefined, now: Date, recheckMs = RECHECK_MS): SigningKeys {
  if (dataDir === undefined) return new SigningKeys(() => [toSigningKey(newStoredKey(now))]);
  const dir = join(dataDir, 'identity');
  mkdirSync(dir, { recursive: true });
  const file = join(dataDir, SIGNING_KEYS_FILE);
  // A key is generated only when none is kept yet (generating one takes ~0.1 s of every start otherwise).
  if (!existsSync(file)) {
    try {
      // 'wx': two instances starting at once keep the first one's key.
      writeKeyFile(file, { keys: [newStoredKey(now)] }, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  if (process.platform !== 'win32') chmodSync(file, 0o600);
  return new SigningKeys(readKeyFile(file).keys.map(toSigningKey), file, recheckMs);
}

/**
 * A new signing key: the current one is retired (its public key stays in the JWKS for
 * RETIRED_KEY_KEPT_MS), keys retired longer ago are dropped. Returns the new key's id.
 */
export function rotateSigningKey(dataDir: string, now: Date): string {
  loadSigningKeys(dataDir, now);
  const file = join(dataDir, SIGNING_KEYS_FILE);
  const current = readKeyFile(file);
  const kept = current.keys
    .map((k) => (k.retired ? k : { ...k, retired: now.toISOString() }))
    .filter((k) => now.getTime() - new Date(k.retired!).getTime() < RETIRED_KEY_KEPT_MS);
  const fresh = newStoredKey(now);
  writeKeyFile(file, { keys: [fresh, ...kept] }, 'w');
  return fresh.kid;
}
