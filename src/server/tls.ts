// What fastify's `https` option is given: the user's own certificate (`--cert`/`--key` PEM
// files, or a `--pfx` PKCS#12 file), or the one spemu makes (certificates.ts). A certificate
// that cannot be used is refused at start, with the file named, never when the first client
// connects.

import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ensureCertificates } from './certificates.ts';

export type TlsSource =
  | { kind: 'generated' }
  | { kind: 'pem'; certFile: string; keyFile: string }
  | { kind: 'pfx'; pfxFile: string; passphrase?: string | undefined };

export interface TlsSetup {
  /** fastify's `https` option. */
  https: { key: string | Buffer; cert: string | Buffer } | { pfx: Buffer; passphrase?: string | undefined };
  /** The CA certificate spemu made, when it made the server's: what clients must trust. */
  ca?: string | undefined;
  caPath?: string | undefined;
}

/** A certificate or key that cannot be used; its message names the file and is written for the operator. */
export class TlsFileError extends Error {}

function read(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new TlsFileError(`${flag} '${file}' cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
}

/**
 * The TLS set-up for `source`. `names` are the host names a generated certificate covers;
 * `dir` the workspace folder it is kept in (undefined: made for this process only).
 */
export function loadTls(source: TlsSource, names: readonly string[], dir: string | undefined, now: Date): TlsSetup {
  if (source.kind === 'generated') {
    const made = ensureCertificates(dir, names, now);
    return { https: { key: made.key, cert: made.cert }, ca: made.ca, caPath: made.caPath };
  }
  const https: TlsSetup['https'] = source.kind === 'pem'
    ? { cert: read(source.certFile, '--cert'), key: read(source.keyFile, '--key') }
    : { pfx: read(source.pfxFile, '--pfx'), passphrase: source.passphrase };
  try {
    createSecureContext(https);
  } catch (e) {
    // node's message says what is wrong (no start line, bad decrypt, key values mismatch) without the key itself.
    const files = source.kind === 'pem' ? `--cert '${source.certFile}' and --key '${source.keyFile}'` : `--pfx '${source.pfxFile}'`;
    throw new TlsFileError(`${files} cannot serve HTTPS: ${(e as Error).message}.`);
  }
  return { https };
}
