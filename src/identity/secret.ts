// The workspace secret: the key that signs bearer tokens (HS256), cookie sessions and
// request digests. Every instance sharing it accepts the others' tokens, sessions and
// digests, since none of them is stored anywhere.

import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** The file in the workspace folder that keeps the generated secret (mode 0600). */
export const SECRET_FILE = 'token-secret';

/** HS256 wants a key at least as long as its hash (RFC 7518 §3.2). */
export const MIN_SECRET_LENGTH = 32;

export class SecretError extends Error {}

export interface SecretSource {
  /** `--token-secret` / `SPEMU_TOKEN_SECRET`: used as is (its UTF-8 bytes are the key). */
  tokenSecret?: string | undefined;
  /** The workspace folder; undefined means "none" (an in-memory server without `--data`). */
  dataDir?: string | undefined;
}

/**
 * The secret as bytes: the configured one, else the workspace's file (created on first use,
 * readable only by its owner), else (no workspace) a fresh secret for this process only.
 */
export function resolveSecret(source: SecretSource): Uint8Array {
  if (source.tokenSecret !== undefined) {
    if (source.tokenSecret.length < MIN_SECRET_LENGTH) {
      throw new SecretError(`--token-secret must be at least ${MIN_SECRET_LENGTH} characters long.`);
    }
    return new TextEncoder().encode(source.tokenSecret);
  }
  if (source.dataDir === undefined) return new TextEncoder().encode(randomBytes(32).toString('base64url'));
  return new TextEncoder().encode(workspaceSecret(source.dataDir));
}

function workspaceSecret(dir: string): string {
  const file = join(dir, SECRET_FILE);
  mkdirSync(dir, { recursive: true });
  try {
    // 'wx' fails if the file exists: two processes starting at once keep the first one's secret.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new SecretError(`${file} holds a secret shorter than ${MIN_SECRET_LENGTH} characters; delete it to have a new one made.`);
  return secret;
}
