// Refresh tokens: signed (HS256 with a key derived from the workspace secret, never the secret
// itself, so a refresh token is never accepted as a bearer token), stateless like spemu's other
// credentials, so every instance sharing the workspace accepts them. Each one names the user, the
// client it was issued to, the scopes and resource, and a fingerprint of the user's password
// hash: a password change (a new hash) revokes every refresh token issued before it. Redeeming
// one returns a new one (rotation, as Entra does); the old one stays valid until it expires,
// since nothing is stored to remember it was used.

import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/** Entra's refresh tokens live 90 days (sliding); spemu's 14. */
export const REFRESH_TOKEN_SECONDS = 14 * 24 * 60 * 60;

const TYPE = 'spemu-rt';

const refreshKey = (secret: Uint8Array) => createHmac('sha256', secret).update('spemu refresh tokens v1').digest();

/** A fingerprint of the user's stored password hash (not the hash itself): changes when the password does. */
export const passwordFingerprint = (secret: Uint8Array, passwordHash: string) =>
  createHmac('sha256', refreshKey(secret)).update(passwordHash).digest('base64url').slice(0, 22);

export interface RefreshGrant {
  upn: string;
  clientId: string;
  scopes: string[];
  /** The resource the first token was for (its origin). */
  resource: string;
  passwordFingerprint: string;
}

export async function issueRefreshToken(secret: Uint8Array, grant: RefreshGrant, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ typ: TYPE, cid: grant.clientId, scp: grant.scopes.join(' '), res: grant.resource, pfp: grant.passwordFingerprint })
    .setProtectedHeader({ alg: 'HS256' }).setSubject(grant.upn).setJti(randomBytes(12).toString('base64url')).setIssuedAt(iat).setExpirationTime(iat + REFRESH_TOKEN_SECONDS)
    .sign(refreshKey(secret));
}

/** The grant a refresh token carries; 'expired' or 'invalid' otherwise. */
export async function readRefreshToken(secret: Uint8Array, token: string, now: Date): Promise<RefreshGrant | 'expired' | 'invalid'> {
  try {
    const { payload } = await jwtVerify(token, refreshKey(secret), { algorithms: ['HS256'], currentDate: now });
    if (payload.typ !== TYPE || typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || typeof payload.pfp !== 'string') return 'invalid';
    return {
      upn: payload.sub, clientId: payload.cid, scopes: String(payload.scp ?? '').split(' ').filter(Boolean),
      resource: String(payload.res ?? ''), passwordFingerprint: payload.pfp,
    };
  } catch (e) {
    return e instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
  }
}
