// `--https` without a certificate of the user's: spemu makes its own, once, into the workspace
// (`<data>/tls/`), as mkcert does — a local certificate authority, which the user trusts once
// (NODE_EXTRA_CA_CERTS, a browser's certificate store), and a server certificate it signs for
// the loopback names and every host name the tenant uses. The server certificate is remade when
// those names change or it nears its end; the CA only when it nears its own, so trust placed in
// it lasts. Keys come from node:crypto; node-forge writes and signs the X.509 structures.

import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

/** node-forge, loaded when a certificate is first made or read: not on every start (~20 ms of it). */
let forgeModule: typeof Forge | undefined;
const forge = (): typeof Forge => (forgeModule ??= createRequire(import.meta.url)('node-forge') as typeof Forge);

export interface GeneratedTls {
  /** PEM of the server certificate followed by the CA's (the chain a client is sent). */
  cert: string;
  key: string;
  /** PEM of the CA certificate: what clients must trust. */
  ca: string;
  /** Where the CA certificate is, when the workspace keeps it (undefined: this process only). */
  caPath?: string | undefined;
  /** Whether this call made (or remade) the server certificate. */
  made: boolean;
}

/** The files in `<data>/tls/`. Keys are written with mode 0600. */
export const TLS_FILES = { caCert: 'ca.pem', caKey: 'ca-key.pem', cert: 'server.pem', key: 'server-key.pem' } as const;

const DAY_MS = 86_400_000;
/** Long enough not to bother anyone; a CA trusted by hand is not remade lightly. */
const CA_DAYS = 3650;
/** Under Apple's 825-day and the CA/Browser Forum's 398-day limits, which some clients apply even to local CAs. */
const SERVER_DAYS = 397;
/** Remade when fewer days than this are left. */
const RENEW_DAYS = 30;

/** The names a server certificate covers: loopback ones first, then the tenant's, without duplicates. */
export function certificateNames(hostNames: readonly string[]): string[] {
  const names = ['localhost', '127.0.0.1', '::1', ...hostNames.map((n) => n.toLowerCase())];
  return [...new Set(names)];
}

/**
 * The CA and server certificate for `names`, from `dir` when they are there, still valid and
 * cover exactly those names; made (and written to `dir`) otherwise. Without `dir`, made in
 * memory for this process (an in-memory database with no workspace folder).
 */
export function ensureCertificates(dir: string | undefined, names: readonly string[], now: Date): GeneratedTls {
  const files = dir ? {
    caCert: join(dir, TLS_FILES.caCert), caKey: join(dir, TLS_FILES.caKey), cert: join(dir, TLS_FILES.cert), key: join(dir, TLS_FILES.key),
  } : undefined;
  let ca = files ? readPair(files.caCert, files.caKey) : undefined;
  if (!ca || !usable(ca, now)) {
    ca = makeCa(now);
    if (files) { writeSecret(files.caKey, ca.key); writePublic(files.caCert, ca.cert); }
  }
  const server = files ? readPair(files.cert, files.key) : undefined;
  if (server && usable(server, now) && signedBy(server.cert, ca.cert) && sameNames(server.cert, names)) {
    return { cert: `${server.cert}${ca.cert}`, key: server.key, ca: ca.cert, caPath: files?.caCert, made: false };
  }
  const made = makeServerCertificate(ca, names, now);
  if (files) { writeSecret(files.key, made.key); writePublic(files.cert, made.cert); }
  return { cert: `${made.cert}${ca.cert}`, key: made.key, ca: ca.cert, caPath: files?.caCert, made: true };
}

interface Pair { cert: string; key: string }

function readPair(certFile: string, keyFile: string): Pair | undefined {
  if (!existsSync(certFile) || !existsSync(keyFile)) return undefined;
  try {
    const pair = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
    // A key that is not the certificate's (a half-finished write, a file replaced by hand) makes a new pair.
    return new X509Certificate(pair.cert).checkPrivateKey(createPrivateKey(pair.key)) ? pair : undefined;
  } catch {
    return undefined;
  }
}

const usable = (pair: Pair, now: Date) => new Date(new X509Certificate(pair.cert).validTo).getTime() - now.getTime() > RENEW_DAYS * DAY_MS;

const signedBy = (cert: string, ca: string) => {
  const x = new X509Certificate(cert);
  const issuer = new X509Certificate(ca);
  return x.checkIssued(issuer) && x.verify(issuer.publicKey);
};

/** node prints the SANs as `DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1`. */
function sameNames(cert: string, names: readonly string[]): boolean {
  const present = (new X509Certificate(cert).subjectAltName ?? '').split(', ').map((entry) => {
    const [kind, value = ''] = [entry.slice(0, entry.indexOf(':')), entry.slice(entry.indexOf(':') + 1)];
    return kind === 'IP Address' ? canonicalIp(value) : value.toLowerCase();
  });
  const wanted = names.map((n) => (isIP(n) ? canonicalIp(n) : n.toLowerCase()));
  return present.length === wanted.length && wanted.every((n) => present.includes(n));
}

/** One spelling per IP address (node writes ::1 as 0:0:0:0:0:0:0:1): the URL parser's compressed form. */
const canonicalIp = (address: string) => (isIP(address) === 6 ? new URL(`http://[${address}]/`).hostname : address);

function newKeyPair(): { key: string; forgeKey: Forge.pki.rsa.PrivateKey; publicKey: Forge.pki.rsa.PublicKey } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  return {
    key,
    forgeKey: forge().pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string) as Forge.pki.rsa.PrivateKey,
    publicKey: forge().pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }) as string) as Forge.pki.rsa.PublicKey,
  };
}

/** A positive serial number of 16 random bytes (RFC 5280: positive, at most 20 octets). */
const serialNumber = () => {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
};

function validity(cert: Forge.pki.Certificate, now: Date, days: number): void {
  // A minute back: clients whose clock runs a little behind still accept it at once.
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + days * DAY_MS);
}

function makeCa(now: Date): Pair {
  const keys = newKeyPair();
  const cert = forge().pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  validity(cert, now, CA_DAYS);
  // A name of its own per workspace, so two spemu CAs in one certificate store are told apart.
  const subject = [{ name: 'commonName', value: `spemu local CA ${randomBytes(4).toString('hex')}` }, { name: 'organizationName', value: 'spemu development CA' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.forgeKey, forge().md.sha256.create());
  return { cert: forge().pki.certificateToPem(cert), key: keys.key };
}

function makeServerCertificate(ca: Pair, names: readonly string[], now: Date): Pair {
  const caCert = forge().pki.certificateFromPem(ca.cert);
  const caKey = forge().pki.privateKeyFromPem(createPrivateKey(ca.key).export({ type: 'pkcs1', format: 'pem' }) as string);
  const keys = newKeyPair();
  const cert = forge().pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  validity(cert, now, SERVER_DAYS);
  cert.setSubject([{ name: 'commonName', value: names.find((n) => !isIP(n) && n !== 'localhost') ?? 'localhost' }, { name: 'organizationName', value: 'spemu' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    // Clients match names against these alone (RFC 6125); the common name is for people.
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge().md.sha256.create());
  return { cert: forge().pki.certificateToPem(cert), key: keys.key };
}

/** Written whole or not at all (a temporary file renamed), readable by the owner only. */
function writeSecret(file: string, pem: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, pem, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

function writePublic(file: string, pem: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, pem);
  renameSync(temporary, file);
}
