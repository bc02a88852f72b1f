// What clients read before they ask for a token: OpenID Connect discovery (v2.0 and v1.0
// documents, shaped as Entra's), the JWKS with our signing keys' public halves, and the
// instance discovery MSAL asks login.microsoftonline.com for (clients pointed at spemu set
// `knownAuthorities` or `cloudDiscoveryMetadata`, and may copy this answer into the latter).

import type { SigningKeys } from '../../identity/signing-keys.ts';

/** The tenant as it is written into endpoint URLs: its id, or the alias the client used (`common`). */
export interface DiscoveryTenant {
  /** The path segment endpoints carry: the tenant id, or `common` / `organizations` as asked. */
  segment: string;
  tenantId: string;
  /** True for `common` / `organizations`: the issuer holds Entra's `{tenantid}` placeholder. */
  alias: boolean;
}

const CLAIMS = ['sub', 'iss', 'cloud_instance_name', 'cloud_instance_host_name', 'cloud_graph_host_name', 'msgraph_host', 'aud', 'exp', 'iat', 'auth_time', 'acr', 'nonce', 'preferred_username', 'name', 'tid', 'ver', 'at_hash', 'c_hash', 'email'];

const hostOf = (origin: string) => new URL(origin).host;

export function openIdConfigurationV2(origin: string, t: DiscoveryTenant): Record<string, unknown> {
  const base = `${origin}/${t.segment}`;
  return {
    token_endpoint: `${base}/oauth2/v2.0/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    jwks_uri: `${base}/discovery/v2.0/keys`,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    issuer: `${origin}/${t.alias ? '{tenantid}' : t.tenantId}/v2.0`,
    request_uri_parameter_supported: false,
    userinfo_endpoint: `${base}/openid/userinfo`,
    authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
    device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    end_session_endpoint: `${base}/oauth2/v2.0/logout`,
    claims_supported: CLAIMS,
    kerberos_endpoint: `${base}/kerberos`,
    tenant_region_scope: 'NA',
    cloud_instance_name: hostOf(origin),
    cloud_graph_host_name: hostOf(origin),
    msgraph_host: hostOf(origin),
    rbac_url: origin,
  };
}

export function openIdConfigurationV1(origin: string, t: DiscoveryTenant): Record<string, unknown> {
  const base = `${origin}/${t.segment}`;
  return {
    token_endpoint: `${base}/oauth2/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    jwks_uri: `${base}/discovery/keys`,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'token id_token', 'token'],
    scopes_supported: ['openid'],
    issuer: `${origin}/${t.alias ? '{tenantid}' : t.tenantId}/`,
    microsoft_multi_refresh_token: true,
    authorization_endpoint: `${base}/oauth2/authorize`,
    device_authorization_endpoint: `${base}/oauth2/devicecode`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    end_session_endpoint: `${base}/oauth2/logout`,
    claims_supported: ['sub', 'iss', 'cloud_instance_name', 'cloud_instance_host_name', 'cloud_graph_host_name', 'msgraph_host', 'aud', 'exp', 'iat', 'auth_time', 'acr', 'amr', 'nonce', 'email', 'given_name', 'family_name', 'nickname'],
    tenant_region_scope: 'NA',
    cloud_instance_name: hostOf(origin),
    cloud_graph_host_name: hostOf(origin),
    msgraph_host: hostOf(origin),
    rbac_url: origin,
  };
}

/** The JWKS: each verifying key with Entra's members (kty, use, kid, x5t, n, e, alg). */
export function jwksDocument(keys: SigningKeys, now: Date, issuer?: string): { keys: Array<Record<string, unknown>> } {
  return { keys: keys.jwks(now).keys.map((k) => ({ kty: k.kty, use: k.use, kid: k.kid, x5t: k.kid, n: k.n, e: k.e, alg: k.alg, ...(issuer ? { issuer } : {}) })) };
}

/**
 * MSAL's instance discovery answer: where the tenant's v2.0 discovery document is, and this
 * host as its own (and only) alias. `tenantSegment` comes from the authorization_endpoint asked about.
 */
export function instanceDiscovery(origin: string, tenantSegment: string): Record<string, unknown> {
  const host = hostOf(origin);
  return {
    tenant_discovery_endpoint: `${origin}/${tenantSegment}/v2.0/.well-known/openid-configuration`,
    'api-version': '1.1',
    metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
  };
}
