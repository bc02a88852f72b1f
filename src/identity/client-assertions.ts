// Client assertions (RFC 7523, "private_key_jwt"), as MSAL sends them for a client
// certificate: a JWT signed with the certificate's private key (RS256, or PS256 with
// x5t#S256 in MSAL 3), naming the certificate by its SHA-1 thumbprint (`x5t`) or SHA-256
// (`x5t#S256`) in the header; iss = sub = the client id; aud = the token endpoint.
// The certificate must be one registered on the app and not expired.

import { createPublicKey } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { RegisteredApp, StoredCertificate } from './apps.ts';
import { CLOCK_SKEW_SECONDS } from './entra-tokens.ts';

/** Why an assertion is refused; the token endpoint maps it to Entra's AADSTS code. */
export type AssertionProblem = 'malformed' | 'unknownCertificate' | 'expiredCertificate' | 'badSignature' | 'lifetime' | 'subject' | 'audience';

export class AssertionError extends Error {
  constructor(readonly problem: AssertionProblem) {
    super(problem);
    this.name = 'AssertionError';
  }
}

/** Base64url thumbprint (as in x5t) → upper-case hex (as stored). */
const thumbprintHex = (b64url: string) => Buffer.from(b64url, 'base64url').toString('hex').toUpperCase();

function certificateFor(app: RegisteredApp, header: Record<string, unknown>): StoredCertificate | undefined {
  const x5t = typeof header.x5t === 'string' ? thumbprintHex(header.x5t) : undefined;
  const x5tS256 = typeof header['x5t#S256'] === 'string' ? thumbprintHex(header['x5t#S256']) : undefined;
  const kid = typeof header.kid === 'string' ? header.kid.replace(/:/g, '').toUpperCase() : undefined;
  return app.certificates.find((c) => (x5t && c.sha1 === x5t) || (x5tS256 && c.sha256 === x5tS256) || (kid && (c.sha1 === kid || c.sha256 === kid)));
}

/**
 * Checks an assertion for `app`; `audience(aud)` says whether aud names this token endpoint.
 * Returns nothing; throws an AssertionError.
 */
export async function verifyClientAssertion(assertion: string, app: RegisteredApp, audience: (aud: string) => boolean, now: Date): Promise<void> {
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(assertion) as Record<string, unknown>;
  } catch {
    throw new AssertionError('malformed');
  }
  if (header.alg !== 'RS256' && header.alg !== 'PS256') throw new AssertionError('malformed');
  const certificate = certificateFor(app, header);
  if (!certificate) throw new AssertionError('unknownCertificate');
  if (new Date(certificate.notAfter).getTime() <= now.getTime()) throw new AssertionError('expiredCertificate');
  let payload;
  try {
    ({ payload } = await jwtVerify(assertion, createPublicKey(certificate.pem), { algorithms: ['RS256', 'PS256'], currentDate: now, clockTolerance: CLOCK_SKEW_SECONDS }));
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired || (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'nbf')) throw new AssertionError('lifetime');
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) throw new AssertionError('badSignature');
    throw new AssertionError('malformed');
  }
  if (typeof payload.exp !== 'number') throw new AssertionError('lifetime');
  const clientId = app.clientId.toLowerCase();
  if (String(payload.iss ?? '').toLowerCase() !== clientId || String(payload.sub ?? '').toLowerCase() !== clientId) throw new AssertionError('subject');
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!audiences.some((a) => typeof a === 'string' && audience(a))) throw new AssertionError('audience');
}
