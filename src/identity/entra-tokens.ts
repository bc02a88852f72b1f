// Entra-shaped access tokens: what Microsoft Entra ID issues for SharePoint (a v1.0 token,
// whatever endpoint asked for it, since SharePoint's app accepts v1 tokens), signed RS256 with
// the workspace's signing key (signing-keys.ts). Issued by the identity front's token endpoint
// and by anything else that hands out tokens (a managed-identity endpoint); checked by the
// authenticate stage with verifyEntraToken. Claims as Entra writes them: aud (the SharePoint
// resource, its origin), iss, tid, oid, sub, upn/unique_name/name (delegated), appid,
// appidacr, idtyp, scp (delegated) or roles (app-only), iat/nbf/exp, uti, ver.

import { randomBytes } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { DirectoryUser } from '../store/directory.ts';
import type { SigningKeys } from './signing-keys.ts';
import { TOKEN_DIAGNOSTICS, TokenError } from './tokens.ts';

/** Entra's default access token lifetime (it varies 60–90 minutes; spemu keeps the lower end). */
export const ACCESS_TOKEN_SECONDS = 3599;

/** Clock skew allowed when checking nbf and exp. */
export const CLOCK_SKEW_SECONDS = 60;

/** Where tokens come from: spemu's origin as the client reached it, and the tenant. */
export interface Authority {
  /** `https://127.0.0.1:8443`, no trailing slash. */
  origin: string;
  tenantId: string;
}

/** Entra's issuer strings for this authority: v1 tokens `{origin}/{tid}/`, v2 `{origin}/{tid}/v2.0`. */
export const issuerV1 = (a: Authority) => `${a.origin}/${a.tenantId}/`;
export const issuerV2 = (a: Authority) => `${a.origin}/${a.tenantId}/v2.0`;

/** How a confidential client proved itself: Entra's appidacr (0 public, 1 secret, 2 certificate). */
export type ClientAuthentication = 'none' | 'secret' | 'certificate';
const APPIDACR: Record<ClientAuthentication, string> = { none: '0', secret: '1', certificate: '2' };

export type TokenSubject =
  /** Delegated: a user, through a client app, with scopes (`AllSites.Read`, …). */
  | { kind: 'user'; user: DirectoryUser; clientId: string; appDisplayName: string; scopes: string[]; clientAuthentication: ClientAuthentication; amr?: string[] }
  /** App-only: the app's service principal, with its granted application permissions as roles. */
  | { kind: 'app'; clientId: string; appDisplayName: string; objectId: string; roles: string[]; clientAuthentication: ClientAuthentication };

export interface AccessTokenRequest {
  keys: SigningKeys;
  authority: Authority;
  /** The audience: the SharePoint resource's origin (`https://contoso.sharepoint.com`). */
  resource: string;
  subject: TokenSubject;
  now: Date;
  lifetimeSeconds?: number;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  /** Seconds since the epoch. */
  expiresOn: number;
  claims: JWTPayload;
}

/** An Entra-shaped access token for SharePoint, signed with the active key. */
export async function issueAccessToken(request: AccessTokenRequest): Promise<IssuedToken> {
  const { authority, subject, keys } = request;
  const iat = Math.floor(request.now.getTime() / 1000);
  const lifetime = request.lifetimeSeconds ?? ACCESS_TOKEN_SECONDS;
  const common = {
    aud: request.resource.replace(/\/+$/, ''), iss: issuerV1(authority), iat, nbf: iat, exp: iat + lifetime,
    app_displayname: subject.appDisplayName, appid: subject.clientId, appidacr: APPIDACR[subject.clientAuthentication],
    idp: issuerV1(authority), tid: authority.tenantId, uti: randomBytes(16).toString('base64url'), ver: '1.0',
  };
  const claims: JWTPayload = subject.kind === 'app'
    ? { ...common, idtyp: 'app', oid: subject.objectId, sub: subject.objectId, roles: subject.roles }
    : {
      ...common, idtyp: 'user', acr: '1', amr: subject.amr ?? ['pwd'], oid: subject.user.objectId, sub: subject.user.objectId, puid: subject.user.puid,
      upn: subject.user.upn, unique_name: subject.user.upn, name: subject.user.displayName,
      ...(subject.user.firstName ? { given_name: subject.user.firstName } : {}), ...(subject.user.lastName ? { family_name: subject.user.lastName } : {}),
      scp: subject.scopes.join(' '),
    };
  const accessToken = await new SignJWT(claims)
    .setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: keys.active.kid, x5t: keys.active.kid })
    .sign(keys.active.privateKey);
  return { accessToken, expiresIn: lifetime, expiresOn: iat + lifetime, claims };
}

/** Who a verified Entra-shaped token names. */
export type EntraPrincipal =
  | { kind: 'user'; upn: string; claims: JWTPayload }
  | { kind: 'app'; clientId: string; roles: string[]; claims: JWTPayload };

export interface EntraTokenChecks {
  keys: SigningKeys;
  now: Date;
  /** Whether an `iss` is one of this tenant's issuers at an origin spemu answers for. */
  issuer: (iss: string) => boolean;
  /** Whether an `aud` names the resource the request came in on. */
  audience: (aud: string) => boolean;
}

const USER_CLAIMS = ['upn', 'unique_name', 'preferred_username', 'email'] as const;

/** Whether a token's header says it is one of ours (RS256 with a kid): the rest is verifyEntraToken's. */
export function isEntraShaped(token: string): boolean {
  try {
    const header = decodeProtectedHeader(token);
    return header.alg === 'RS256' && typeof header.kid === 'string';
  } catch {
    return false;
  }
}

/**
 * Checks a token strictly: RS256 only, signed by one of our verifying keys (by kid), issuer and
 * audience as given, nbf/exp with CLOCK_SKEW_SECONDS. A TokenError with SharePoint's
 * diagnostics otherwise.
 */
export async function verifyEntraToken(token: string, checks: EntraTokenChecks): Promise<EntraPrincipal> {
  let kid: unknown;
  let alg: unknown;
  try {
    ({ kid, alg } = decodeProtectedHeader(token));
  } catch {
    throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  }
  if (alg !== 'RS256') throw new TokenError(TOKEN_DIAGNOSTICS.badAlgorithm);
  const key = typeof kid === 'string' ? checks.keys.byKid(kid, checks.now) : undefined;
  if (!key) throw new TokenError(TOKEN_DIAGNOSTICS.badSignature);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key.publicKey, { algorithms: ['RS256'], currentDate: checks.now, clockTolerance: CLOCK_SKEW_SECONDS }));
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new TokenError(TOKEN_DIAGNOSTICS.expired);
    if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'nbf') throw new TokenError(TOKEN_DIAGNOSTICS.notYetValid);
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) throw new TokenError(TOKEN_DIAGNOSTICS.badSignature);
    throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  }
  // Entra tokens always carry exp; one without it never expires, so it is refused.
  if (typeof payload.exp !== 'number') throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  if (typeof payload.iss !== 'string' || !checks.issuer(payload.iss)) throw new TokenError(TOKEN_DIAGNOSTICS.badIssuer);
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (!audiences.some((a) => typeof a === 'string' && checks.audience(a))) throw new TokenError(TOKEN_DIAGNOSTICS.badAudience);
  if (payload.idtyp === 'app' || (payload.scp === undefined && Array.isArray(payload.roles))) {
    const clientId = typeof payload.appid === 'string' ? payload.appid : typeof payload.azp === 'string' ? payload.azp : undefined;
    if (!clientId) throw new TokenError(TOKEN_DIAGNOSTICS.noUser);
    return { kind: 'app', clientId, roles: (payload.roles as unknown[]).filter((r): r is string => typeof r === 'string'), claims: payload };
  }
  for (const claim of USER_CLAIMS) {
    const value = payload[claim];
    if (typeof value === 'string' && value.trim()) return { kind: 'user', upn: value.trim(), claims: payload };
  }
  throw new TokenError(TOKEN_DIAGNOSTICS.noUser);
}

/** A v2.0 ID token for a user signed in through a client app (aud = the client id). */
export async function issueIdToken(request: { keys: SigningKeys; authority: Authority; clientId: string; user: DirectoryUser; now: Date; nonce?: string | undefined }): Promise<string> {
  const { keys, authority, user } = request;
  const iat = Math.floor(request.now.getTime() / 1000);
  return new SignJWT({
    aud: request.clientId, iss: issuerV2(authority), iat, nbf: iat, exp: iat + ACCESS_TOKEN_SECONDS,
    name: user.displayName, oid: user.objectId, preferred_username: user.upn, sub: user.objectId, tid: authority.tenantId,
    uti: randomBytes(16).toString('base64url'), ver: '2.0', ...(request.nonce ? { nonce: request.nonce } : {}),
  }).setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: keys.active.kid }).sign(keys.active.privateKey);
}

/** MSAL's client_info: base64url of `{"uid": oid, "utid": tid}`, from which it builds the account id. */
export const clientInfo = (objectId: string, tenantId: string) =>
  Buffer.from(JSON.stringify({ uid: objectId, utid: tenantId })).toString('base64url');
