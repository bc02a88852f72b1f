// Bearer tokens: JWTs signed HS256 with the workspace secret (what `spemu token` prints),
// or, with `--auth loose`, any well-formed JWT whose signature is not checked (to replay
// tokens issued by a real tenant). The acting user comes from the first of the claims
// SharePoint Online reads: upn, unique_name, preferred_username, email.

import { SignJWT, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';

export type AuthMode = 'strict' | 'loose';

/** SharePoint Online's resource (audience) id: the `client_id` of its challenge. */
export const SHAREPOINT_APP_ID = '00000003-0000-0ff1-ce00-000000000000';

/** Why a token is refused, as SharePoint Online's `x-ms-diagnostics` header says it. */
export class TokenError extends Error {
  constructor(readonly diagnostics: string) {
    super(diagnostics);
    this.name = 'TokenError';
  }
}

const diag = (code: number, reason: string) => `${code};reason="${reason}";category="invalid_client"`;

/** The forms SharePoint sends (reference §7.4); the first two are captured, the others follow their pattern. */
export const TOKEN_DIAGNOSTICS = {
  badAlgorithm: diag(3005004, 'The token does not contain valid algorithm in header.'),
  badSignature: diag(3000006, 'Token contains invalid signature.'),
  malformed: diag(3000003, 'Invalid JWT token. The token is not in the JWS compact serialization format.'),
  expired: diag(3000007, 'Token is expired.'),
  notYetValid: diag(3000008, 'Token is not yet valid.'),
  noUser: diag(3000009, 'The token does not name a user (upn, unique_name, preferred_username or email).'),
  badIssuer: diag(3000005, 'Invalid issuer or signature.'),
  badAudience: diag(3000004, 'Invalid audience Uri.'),
  unknownApp: diag(3000010, 'The token names an app that is not registered in this tenant.'),
  unsupportedAppOnly: diag(3001000, 'Unsupported app only token.'),
} as const;

const USER_CLAIMS = ['upn', 'unique_name', 'preferred_username', 'email'] as const;

/** `1h`, `30m`, `7d`, `3600` (seconds) → seconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]!.toLowerCase() as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = Number(m[1]) * unit;
  return seconds > 0 ? seconds : undefined;
}

export async function issueToken(secret: Uint8Array, upn: string, options: { expiresInSeconds: number; now: Date }): Promise<string> {
  const iat = Math.floor(options.now.getTime() / 1000);
  return new SignJWT({ upn, unique_name: upn })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('spemu').setAudience(SHAREPOINT_APP_ID)
    .setIssuedAt(iat).setNotBefore(iat).setExpirationTime(iat + options.expiresInSeconds)
    .sign(secret);
}

function userClaim(payload: JWTPayload): string {
  for (const claim of USER_CLAIMS) {
    const value = payload[claim];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  throw new TokenError(TOKEN_DIAGNOSTICS.noUser);
}

/** A well-formed token's `exp` claim (seconds since the epoch), if it has one. */
export function tokenExpiry(token: string): number | undefined {
  const { exp } = decodeJwt(token);
  return typeof exp === 'number' ? exp : undefined;
}

/** The user a token names; a TokenError when it is not acceptable. `exp` and `nbf` are enforced in both modes. */
export async function verifyToken(token: string, secret: Uint8Array, mode: AuthMode, now: Date): Promise<string> {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
    decodeJwt(token);
  } catch {
    throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  }
  if (mode === 'loose') {
    const payload = decodeJwt(token);
    const seconds = Math.floor(now.getTime() / 1000);
    if (typeof payload.exp === 'number' && payload.exp <= seconds) throw new TokenError(TOKEN_DIAGNOSTICS.expired);
    if (typeof payload.nbf === 'number' && payload.nbf > seconds) throw new TokenError(TOKEN_DIAGNOSTICS.notYetValid);
    return userClaim(payload);
  }
  if (alg !== 'HS256') throw new TokenError(TOKEN_DIAGNOSTICS.badAlgorithm);
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: now });
    return userClaim(payload);
  } catch (e) {
    if (e instanceof TokenError) throw e;
    if (e instanceof joseErrors.JWTExpired) throw new TokenError(TOKEN_DIAGNOSTICS.expired);
    if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'nbf') throw new TokenError(TOKEN_DIAGNOSTICS.notYetValid);
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) throw new TokenError(TOKEN_DIAGNOSTICS.badSignature);
    throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  }
}
