// The managed identity spemu hands out (`--managed-identity <upn|app client id>`), as Azure App
// Service, Azure Functions, Cloud Shell and IMDS hand theirs: who it is, the secret a caller
// must show (App Service's IDENTITY_HEADER), and the Entra-shaped token it gets for a resource.
//
// The header secret is derived from the workspace secret (HMAC), so it stays the same across
// restarts of one workspace, differs between workspaces, and is stored nowhere of its own.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DirectoryUser } from '../store/directory.ts';
import type { StoreReader } from '../store/store.ts';
import { appRoles, findApp, type RegisteredApp } from './apps.ts';
import { issueAccessToken, type Authority, type IssuedToken } from './entra-tokens.ts';
import type { SigningKeys } from './signing-keys.ts';

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
 * The identity `--managed-identity` names: a registered app (its client id: app-only tokens, as
 * Azure's managed identities are service principals) or a directory user (its UPN: delegated
 * tokens for that user, for tools that should act as a person). Undefined: neither.
 */
export type ManagedIdentity = { kind: 'app'; app: RegisteredApp } | { kind: 'user'; user: DirectoryUser };

export async function findManagedIdentity(store: Pick<StoreReader, 'settings' | 'directory'>, name: string): Promise<ManagedIdentity | undefined> {
  const app = await findApp(store, name);
  if (app) return { kind: 'app', app };
  const user = await store.directory.findUser(name);
  return user ? { kind: 'user', user } : undefined;
}

/** What callers name the identity by: its client id (App Service's `client_id` answer) and object id (`principal_id`). */
export function identityIds(identity: ManagedIdentity): { clientId: string; objectId: string } {
  return identity.kind === 'app'
    ? { clientId: identity.app.clientId, objectId: identity.app.objectId }
    : { clientId: identity.user.objectId, objectId: identity.user.objectId };
}

/**
 * Whether an id a caller names (`client_id`, `principal_id`, `object_id`, `mi_res_id`) is the
 * identity: its client id, its object id, or a user's UPN (CLI for Microsoft 365's `--userName`).
 */
export function namesIdentity(identity: ManagedIdentity, id: string): boolean {
  const wanted = id.trim().toLowerCase();
  const { clientId, objectId } = identityIds(identity);
  return wanted === clientId.toLowerCase() || wanted === objectId.toLowerCase() || (identity.kind === 'user' && wanted === identity.user.upn.toLowerCase());
}

/** Managed identities' tokens last a day in Azure (App Service and IMDS hand out 24-hour tokens). */
export const MANAGED_IDENTITY_TOKEN_SECONDS = 24 * 3600;

const DISPLAY_NAME = 'spemu managed identity';

/**
 * The token for `resource` (its `aud`), Entra-shaped and signed RS256 with the workspace's
 * signing key, as spemu's token endpoint issues them: app-only with the app's granted
 * permissions as `roles`, or a user's (CLI for Microsoft 365 reads `upn`, `oid` and `tid` to
 * name the connection). The authority is spemu's origin as the caller reached it.
 */
export function issueManagedIdentityToken(
  keys: SigningKeys, authority: Authority, identity: ManagedIdentity, resource: string, now: Date,
): Promise<IssuedToken> {
  const subject = identity.kind === 'app'
    ? { kind: 'app' as const, clientId: identity.app.clientId, appDisplayName: identity.app.displayName, objectId: identity.app.objectId, roles: appRoles(identity.app), clientAuthentication: 'certificate' as const }
    : { kind: 'user' as const, user: identity.user, clientId: identity.user.objectId, appDisplayName: DISPLAY_NAME, scopes: ['AllSites.FullControl'], clientAuthentication: 'certificate' as const, amr: ['mfa'] };
  return issueAccessToken({ keys, authority, resource, subject, now, lifetimeSeconds: MANAGED_IDENTITY_TOKEN_SECONDS });
}
