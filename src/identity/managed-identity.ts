// The managed identity spemu hands out (`--managed-identity <upn>`), as Azure App Service,
// Azure Functions, Cloud Shell and IMDS hand theirs: who it is, the secret a caller must show
// (App Service's IDENTITY_HEADER), and the Entra-shaped token it gets for a resource.
//
// The header secret is derived from the workspace secret (HMAC), so it stays the same across
// restarts of one workspace, differs between workspaces, and is stored nowhere of its own.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import type { DirectoryUser } from '../store/directory.ts';

/** What App Service sets IDENTITY_HEADER to: a workspace's own value, never logged. */
export function managedIdentityHeader(secret: Uint8Array): string {
  return createHmac('sha256', secret).update('spemu managed identity header v1').digest('base64url');
}

/** Whether a caller's X-IDENTITY-HEADER is the workspace's, compared in constant time. */
export function isManagedIdentityHeader(secret: Uint8Array, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(managedIdentityHeader(secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Whether an id a caller names (`client_id`, `principal_id`, `object_id`, `mi_res_id`) is the
 * configured identity: its object id (which spemu also answers as its client id) or its UPN.
 */
export function namesIdentity(user: Pick<DirectoryUser, 'upn' | 'objectId'>, id: string): boolean {
  const wanted = id.trim().toLowerCase();
  return wanted === user.objectId.toLowerCase() || wanted === user.upn.toLowerCase();
}

export const MANAGED_IDENTITY_TOKEN_SECONDS = 24 * 3600;

export interface IssuedToken {
  accessToken: string;
  /** Seconds since the epoch. */
  expiresOn: number;
  notBefore: number;
}

/**
 * The token for `resource` (its `aud`), with the claims Entra ID puts in a token for a user
 * (`upn`, `oid`, `tid`, …; CLI for Microsoft 365 reads `upn`, `oid` and `tid` to name the
 * connection). Signed HS256 with the workspace secret, which spemu's bearer check accepts;
 * the one place to switch to RS256 Entra tokens when spemu issues them.
 */
export async function issueManagedIdentityToken(
  secret: Uint8Array, user: Pick<DirectoryUser, 'upn' | 'objectId' | 'displayName'>, tenantId: string, resource: string, now: Date,
): Promise<IssuedToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + MANAGED_IDENTITY_TOKEN_SECONDS;
  const accessToken = await new SignJWT({
    tid: tenantId, oid: user.objectId, upn: user.upn, unique_name: user.upn, name: user.displayName, ver: '1.0',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`https://sts.windows.net/${tenantId}/`).setAudience(resource).setSubject(user.objectId)
    .setIssuedAt(iat).setNotBefore(iat).setExpirationTime(exp)
    .sign(secret);
  return { accessToken, expiresOn: exp, notBefore: iat };
}
