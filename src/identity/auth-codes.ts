// Authorization codes (the code flow, with PKCE): a code is a short-lived signed record (HS256
// with a key derived from the workspace secret) of who signed in, for which client, redirect URI,
// scopes and PKCE challenge; redeeming one records its id as a workspace setting, so it is
// redeemed once on any instance sharing the database. RFC 7636: S256 (or plain) challenges.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Store } from '../store/store.ts';

/** Entra's codes live about 10 minutes. */
export const AUTH_CODE_SECONDS = 600;

export interface AuthCodeGrant {
  upn: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  oidc: string[];
  resource: string;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: 'S256' | 'plain' | undefined;
  nonce?: string | undefined;
}

const TYPE = 'spemu-code';
const codeKey = (secret: Uint8Array) => createHmac('sha256', secret).update('spemu authorization codes v1').digest();
const usedKey = (jti: string) => `identity.code-used.${jti}`;

export async function issueAuthCode(secret: Uint8Array, grant: AuthCodeGrant, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ typ: TYPE, g: grant }).setProtectedHeader({ alg: 'HS256' }).setJti(randomBytes(16).toString('base64url'))
    .setIssuedAt(iat).setExpirationTime(iat + AUTH_CODE_SECONDS).sign(codeKey(secret));
}

export type RedeemedCode = { grant: AuthCodeGrant } | { problem: 'invalid' | 'redeemed' };

/** Checks a code and marks it redeemed; a second redemption is refused. */
export async function redeemAuthCode(store: Pick<Store, 'settings'>, secret: Uint8Array, code: string, now: Date): Promise<RedeemedCode> {
  let payload;
  try {
    ({ payload } = await jwtVerify(code, codeKey(secret), { algorithms: ['HS256'], currentDate: now }));
  } catch {
    return { problem: 'invalid' };
  }
  if (payload.typ !== TYPE || typeof payload.jti !== 'string' || typeof payload.g !== 'object') return { problem: 'invalid' };
  if (await store.settings.get(usedKey(payload.jti))) return { problem: 'redeemed' };
  await store.settings.set(usedKey(payload.jti), now.toISOString());
  return { grant: payload.g as AuthCodeGrant };
}

/** Whether the verifier answers the challenge (RFC 7636 §4.6). */
export function verifierMatches(grant: AuthCodeGrant, verifier: string | undefined): boolean {
  if (!grant.codeChallenge) return true;
  if (!verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = grant.codeChallengeMethod === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
  const a = Buffer.from(computed);
  const b = Buffer.from(grant.codeChallenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
