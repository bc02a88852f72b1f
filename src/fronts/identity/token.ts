// The token endpoint, `/{tenant}/oauth2/v2.0/token` and v1.0 `/{tenant}/oauth2/token`:
// client_credentials (a client secret, or a certificate's client assertion), the resource
// owner password grant, and refresh_token. Answers as Entra does: the v2.0 JSON (numbers) or
// the v1.0 JSON (strings, expires_on, resource), and Entra's errors (errors.ts). A token is
// issued only once the client (and the user) proved who they are.

import type { FrontDeps } from '../../pipeline/deps.ts';
import { checkAppSecret, findApp, appRoles, type RegisteredApp } from '../../identity/apps.ts';
import { AssertionError, verifyClientAssertion } from '../../identity/client-assertions.ts';
import { clientInfo, issueAccessToken, issueIdToken, type Authority, type ClientAuthentication, type IssuedToken } from '../../identity/entra-tokens.ts';
import { issueRefreshToken, passwordFingerprint, readRefreshToken } from '../../identity/refresh-tokens.ts';
import { resolveTenantSegment, type TenantNames } from '../../identity/tenant-names.ts';
import type { DirectoryUser } from '../../store/directory.ts';
import { hostNameOf } from '../../pipeline/origin.ts';
import { EntraError, entraErrors } from './errors.ts';
import { delegatedScopes, parseResource, parseScopes, type RequestedScopes, type ScopeContext } from './scopes.ts';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

export interface TokenRequest {
  version: 1 | 2;
  /** The form fields of the body. */
  params: URLSearchParams;
  /** The Authorization header, for client_secret_basic. */
  authorization: string | undefined;
  origin: string;
  names: TenantNames;
  tenantHosts: readonly string[];
}

/** What the grant yields, before it is written in the endpoint's version. */
interface Grant {
  token: IssuedToken;
  scopes: RequestedScopes;
  /** scp of a user's token. */
  delegated?: string[];
  user?: DirectoryUser;
  clientId: string;
  refreshToken?: string;
  idToken?: string;
  clientInfo?: string;
}

const param = (params: URLSearchParams, name: string) => params.get(name)?.trim() || undefined;

/** client_secret_basic: `Basic base64(urlencoded id : urlencoded secret)`. */
function basicClient(authorization: string | undefined): { id: string; secret: string } | undefined {
  const m = /^basic\s+(.+)$/i.exec(authorization?.trim() ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** Whether a client assertion's aud names a token endpoint of this tenant at a host spemu answers for. */
function assertionAudience(request: TokenRequest) {
  return (aud: string): boolean => {
    let url: URL;
    try {
      url = new URL(aud);
    } catch {
      return false;
    }
    const host = hostNameOf(url.origin);
    if (!(host === hostNameOf(request.origin) || request.tenantHosts.includes(host) || LOOPBACK.includes(host))) return false;
    const m = /^\/([^/]+)\/oauth2\/(?:v2\.0\/)?token\/?$/i.exec(url.pathname);
    return m !== null && resolveTenantSegment(request.names, decodeURIComponent(m[1]!)) !== undefined;
  };
}

/**
 * Who the client is, proved by a secret (body or Basic) or a client assertion; a public
 * client may send neither where `publicAllowed`. Never tells a wrong secret from an unknown
 * app by timing alone: an unknown app is answered before any secret is checked, as Entra does.
 */
async function authenticateClient(request: TokenRequest, deps: FrontDeps, publicAllowed: boolean): Promise<{ app: RegisteredApp; how: ClientAuthentication }> {
  const { params } = request;
  const basic = basicClient(request.authorization);
  const clientId = param(params, 'client_id') ?? basic?.id;
  if (!clientId) throw entraErrors.missingParameter('client_id');
  if (basic && basic.id.toLowerCase() !== clientId.toLowerCase()) throw entraErrors.clientMismatch();
  const app = await findApp(deps.store, clientId);
  if (!app) throw entraErrors.unknownApp(clientId, `${request.names.tenantName}`);
  const now = deps.clock();
  const assertion = param(params, 'client_assertion');
  const secret = params.get('client_secret') ?? basic?.secret;
  if (assertion !== undefined) {
    if (param(params, 'client_assertion_type') !== ASSERTION_TYPE) throw entraErrors.assertionType();
    try {
      await verifyClientAssertion(assertion, app, assertionAudience(request), now);
    } catch (e) {
      if (!(e instanceof AssertionError)) throw e;
      throw {
        malformed: entraErrors.assertionMalformed(), unknownCertificate: entraErrors.assertionCertificate(app.clientId),
        expiredCertificate: entraErrors.assertionExpiredCertificate(), badSignature: entraErrors.assertionSignature(),
        lifetime: entraErrors.assertionLifetime(), subject: entraErrors.clientMismatch(), audience: entraErrors.assertionAudience(),
      }[e.problem];
    }
    return { app, how: 'certificate' };
  }
  if (secret !== undefined && secret !== '') {
    if (!(await checkAppSecret(app, secret, now))) throw entraErrors.invalidSecret(app.clientId);
    return { app, how: 'secret' };
  }
  if (publicAllowed && app.publicClient) return { app, how: 'none' };
  throw entraErrors.credentialRequired();
}

function requestedScopes(request: TokenRequest): RequestedScopes {
  const ctx: ScopeContext = { origin: request.origin, tenantHosts: request.tenantHosts, tenantName: request.names.tenantName };
  if (request.version === 1) {
    const resource = param(request.params, 'resource');
    if (resource) return parseResource(resource, ctx);
    const scope = param(request.params, 'scope');
    if (!scope) throw entraErrors.missingParameter('resource');
    return parseScopes(scope, ctx);
  }
  const scope = param(request.params, 'scope');
  if (!scope) throw entraErrors.missingParameter('scope');
  return parseScopes(scope, ctx);
}

/** The grant_type's work: who gets a token, for what. */
export async function grantToken(request: TokenRequest, deps: FrontDeps): Promise<Record<string, unknown>> {
  const grantType = param(request.params, 'grant_type');
  if (!grantType) throw entraErrors.missingParameter('grant_type');
  const authority: Authority = { origin: request.origin, tenantId: request.names.tenantId };
  let grant: Grant;
  switch (grantType) {
    case 'client_credentials':
      grant = await clientCredentials(request, deps, authority);
      break;
    case 'password':
      grant = await passwordGrant(request, deps, authority);
      break;
    case 'refresh_token':
      grant = await refreshGrant(request, deps, authority);
      break;
    default:
      throw entraErrors.unsupportedGrantType(grantType);
  }
  return request.version === 2 ? v2Body(grant) : v1Body(grant);
}

async function clientCredentials(request: TokenRequest, deps: FrontDeps, authority: Authority): Promise<Grant> {
  const { app, how } = await authenticateClient(request, deps, false);
  const scopes = requestedScopes(request);
  const other = scopes.names.find((n) => n !== '.default');
  if (other !== undefined || scopes.names.length === 0) throw entraErrors.clientCredentialsScope(param(request.params, 'scope') ?? '');
  const token = await issueAccessToken({
    keys: deps.signingKeys, authority, resource: scopes.resource, now: deps.clock(),
    subject: { kind: 'app', clientId: app.clientId, appDisplayName: app.displayName, objectId: app.objectId, roles: appRoles(app), clientAuthentication: how },
  });
  return { token, scopes, clientId: app.clientId };
}

/** A user's access token (and refresh token, ID token and client_info as asked). */
async function userTokens(request: TokenRequest, deps: FrontDeps, authority: Authority, app: RegisteredApp, how: ClientAuthentication, user: DirectoryUser, scopes: RequestedScopes, amr: string[]): Promise<Grant> {
  const now = deps.clock();
  const delegated = delegatedScopes(scopes.names);
  const token = await issueAccessToken({
    keys: deps.signingKeys, authority, resource: scopes.resource, now,
    subject: { kind: 'user', user, clientId: app.clientId, appDisplayName: app.displayName, scopes: delegated, clientAuthentication: how, amr },
  });
  const hash = await deps.store.directory.passwordHash(user.upn);
  // v1.0 always gives a refresh token; v2.0 when offline_access is asked for (MSAL always asks).
  const wantsRefresh = request.version === 1 || scopes.oidc.includes('offline_access');
  const refreshToken = wantsRefresh
    ? await issueRefreshToken(deps.secret, { upn: user.upn, clientId: app.clientId, scopes: scopes.names, resource: scopes.resource, passwordFingerprint: passwordFingerprint(deps.secret, hash ?? '') }, now)
    : undefined;
  const idToken = scopes.oidc.includes('openid')
    ? await issueIdToken({ keys: deps.signingKeys, authority, clientId: app.clientId, user, now })
    : undefined;
  const info = param(request.params, 'client_info') === '1' ? clientInfo(user.objectId, authority.tenantId) : undefined;
  return {
    token, scopes, delegated, user, clientId: app.clientId,
    ...(refreshToken ? { refreshToken } : {}), ...(idToken ? { idToken } : {}), ...(info ? { clientInfo: info } : {}),
  };
}

async function passwordGrant(request: TokenRequest, deps: FrontDeps, authority: Authority): Promise<Grant> {
  const { app, how } = await authenticateClient(request, deps, true);
  const username = param(request.params, 'username');
  if (!username) throw entraErrors.missingParameter('username');
  const password = request.params.get('password');
  if (!password) throw entraErrors.missingParameter('password');
  const scopes = requestedScopes(request);
  // An unknown user and a wrong password are answered alike (and take as long: checkPassword).
  const user = await deps.authenticator.checkPassword(username, password);
  if (!user) throw entraErrors.badCredentials();
  return userTokens(request, deps, authority, app, how, user, scopes, ['pwd']);
}

async function refreshGrant(request: TokenRequest, deps: FrontDeps, authority: Authority): Promise<Grant> {
  const { app, how } = await authenticateClient(request, deps, true);
  const presented = param(request.params, 'refresh_token');
  if (!presented) throw entraErrors.missingParameter('refresh_token');
  const grant = await readRefreshToken(deps.secret, presented, deps.clock());
  if (grant === 'invalid') throw entraErrors.malformedRefreshToken();
  if (grant === 'expired') throw entraErrors.expiredRefreshToken();
  if (grant.clientId !== app.clientId) throw entraErrors.refreshTokenClient();
  const user = await deps.store.directory.findUser(grant.upn);
  const hash = user ? await deps.store.directory.passwordHash(user.upn) : undefined;
  // A removed user, or a password changed since: the grant is revoked.
  if (!user || passwordFingerprint(deps.secret, hash ?? '') !== grant.passwordFingerprint) throw entraErrors.revokedRefreshToken();
  const asked = param(request.params, 'scope') ?? (request.version === 1 ? param(request.params, 'resource') : undefined);
  const scopes = asked ? requestedScopes(request) : { resource: grant.resource, names: grant.scopes, oidc: [] };
  // A refreshed grant keeps offline access: the new refresh token replaces the one redeemed.
  const withRefresh = { ...scopes, oidc: [...new Set([...scopes.oidc, 'offline_access'])] };
  return userTokens(request, deps, authority, app, how, user, withRefresh, ['pwd']);
}

function v2Body(grant: Grant): Record<string, unknown> {
  const scope = grant.delegated
    ? [...grant.delegated.map((s) => `${grant.scopes.resource}/${s}`), ...grant.scopes.oidc.filter((s) => s !== 'offline_access' || grant.refreshToken)].join(' ')
    : `${grant.scopes.resource}/.default`;
  return {
    token_type: 'Bearer', scope, expires_in: grant.token.expiresIn, ext_expires_in: grant.token.expiresIn, access_token: grant.token.accessToken,
    ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}), ...(grant.idToken ? { id_token: grant.idToken } : {}),
    ...(grant.clientInfo ? { client_info: grant.clientInfo } : {}),
  };
}

function v1Body(grant: Grant): Record<string, unknown> {
  const nbf = String(grant.token.claims.nbf);
  return {
    token_type: 'Bearer', ...(grant.delegated ? { scope: grant.delegated.join(' ') } : {}),
    expires_in: String(grant.token.expiresIn), ext_expires_in: String(grant.token.expiresIn), expires_on: String(grant.token.expiresOn),
    not_before: nbf, resource: grant.scopes.resource, access_token: grant.token.accessToken,
    ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}), ...(grant.idToken ? { id_token: grant.idToken } : {}),
  };
}

export { EntraError };
