// High-trust (server-to-server) add-in tokens, as SharePoint Server accepts them from a
// provider-hosted add-in and as node-sp-auth's on-premises add-in-only credentials send them
// (its OnpremiseAddinOnly resolver; sp-request, spsave, sppull): a JWT signed RS256 with the
// private key of a trusted issuer's certificate, x5t = base64 of the certificate's SHA-1 hash,
//   iss    <issuerId>@<realm>
//   aud    00000003-0000-0ff1-ce00-000000000000/<host>@<realm>
//   nameid <clientId>@<realm>
//   nbf, exp
// with realm = the tenant id. Such a token acts app-only, as the add-in it names.
// A user-context token (an unsigned outer token carrying the signed one in `actortoken`, with a
// user's nameid) is refused: spemu maps add-ins to apps of the tenant file, which act app-only.

import { createPublicKey } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { TENANT_HOSTS_KEY, TENANT_ID_KEY } from '../domain/settings.ts';
import type { StoreReader } from '../store/store.ts';
import { CLOCK_SKEW_SECONDS } from './entra-tokens.ts';
import { SHAREPOINT_APP_ID, TOKEN_DIAGNOSTICS, TokenError } from './tokens.ts';
import { trustedIssuers, type TrustedIssuer } from './trusted-issuers.ts';

const AUDIENCE_PREFIX = `${SHAREPOINT_APP_ID}/`;

/** Said when a user-context (actor token) high-trust token is sent. */
export const USER_CONTEXT_REFUSED = '3001000;reason="spemu accepts app-only high-trust add-in tokens only; user-context tokens (actortoken) are not supported.";category="invalid_client"';

/** Whether a token claims to be a high-trust one (its audience is SharePoint at `<host>@<realm>`), whatever its algorithm. */
export function isHighTrustShaped(token: string): boolean {
  try {
    const { aud, actortoken } = decodeJwt(token);
    return (typeof aud === 'string' && aud.toLowerCase().startsWith(AUDIENCE_PREFIX) && aud.includes('@')) || typeof actortoken === 'string';
  } catch {
    return false;
  }
}

export interface HighTrustChecks {
  issuers: readonly TrustedIssuer[];
  /** Lower case; the realm every token must name. */
  tenantId: string;
  /** The tenant file's host names (lower case). */
  hosts: readonly string[];
  /** The origin the request came in on: the audience's host must be its host, or one of `hosts`. */
  origin: string;
  now: Date;
}

export async function highTrustChecks(store: Pick<StoreReader, 'settings'>, origin: string, now: Date): Promise<HighTrustChecks> {
  return {
    issuers: await trustedIssuers(store),
    tenantId: ((await store.settings.get(TENANT_ID_KEY)) ?? '').toLowerCase(),
    hosts: JSON.parse((await store.settings.get(TENANT_HOSTS_KEY)) ?? '[]') as string[],
    origin,
    now,
  };
}

/** `x5t` (base64 or base64url of a SHA-1 hash) → upper-case hex, as thumbprints are stored. */
const thumbprintHex = (x5t: string) => Buffer.from(x5t.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('hex').toUpperCase();

/** `<id>@<realm>` with realm = the tenant's → id (lower case); undefined otherwise. */
function idAt(value: unknown, tenantId: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.slice(at + 1).toLowerCase() !== tenantId) return undefined;
  return value.slice(0, at).toLowerCase();
}

function audienceHostAccepted(aud: unknown, checks: HighTrustChecks): boolean {
  if (typeof aud !== 'string' || !aud.toLowerCase().startsWith(AUDIENCE_PREFIX)) return false;
  const host = idAt(aud.slice(AUDIENCE_PREFIX.length), checks.tenantId);
  if (host === undefined) return false;
  const request = new URL(checks.origin);
  if (host === request.host.toLowerCase()) return true;
  // A tenant host name, bare (SharePoint's own form) or with the port the request came in on.
  return checks.hosts.some((h) => host === h || host === `${h}:${request.port}`);
}

/**
 * Checks a high-trust token strictly; the client id of the add-in it acts as (lower case), and
 * its exp. A TokenError with SharePoint's diagnostics otherwise.
 */
export async function verifyHighTrustToken(token: string, checks: HighTrustChecks): Promise<{ clientId: string; exp: number }> {
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(token) as Record<string, unknown>;
    claims = decodeJwt(token);
  } catch {
    throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  }
  if (typeof claims.actortoken === 'string') throw new TokenError(USER_CONTEXT_REFUSED);
  if (header.alg !== 'RS256') throw new TokenError(TOKEN_DIAGNOSTICS.badAlgorithm);
  if (checks.tenantId === '') throw new TokenError(TOKEN_DIAGNOSTICS.badIssuer);
  // The certificate the header names must be a trusted issuer's, and that issuer the token's.
  const thumbprint = typeof header.x5t === 'string' ? thumbprintHex(header.x5t) : '';
  const issuer = checks.issuers.find((i) => i.certificate.sha1 === thumbprint);
  if (!issuer) throw new TokenError(TOKEN_DIAGNOSTICS.badIssuer);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, createPublicKey(issuer.certificate.pem), { algorithms: ['RS256'], currentDate: checks.now, clockTolerance: CLOCK_SKEW_SECONDS }));
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw new TokenError(TOKEN_DIAGNOSTICS.expired);
    if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'nbf') throw new TokenError(TOKEN_DIAGNOSTICS.notYetValid);
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) throw new TokenError(TOKEN_DIAGNOSTICS.badSignature);
    throw new TokenError(TOKEN_DIAGNOSTICS.malformed);
  }
  if (typeof payload.exp !== 'number' || typeof payload.nbf !== 'number') throw new TokenError(TOKEN_DIAGNOSTICS.expired);
  if (idAt(payload.iss, checks.tenantId) !== issuer.issuerId) throw new TokenError(TOKEN_DIAGNOSTICS.badIssuer);
  if (!audienceHostAccepted(payload.aud, checks)) throw new TokenError(TOKEN_DIAGNOSTICS.badAudience);
  const clientId = idAt(payload.nameid, checks.tenantId);
  if (!clientId) throw new TokenError(TOKEN_DIAGNOSTICS.unknownApp);
  return { clientId, exp: payload.exp };
}
