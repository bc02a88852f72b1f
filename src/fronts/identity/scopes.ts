// Scopes as a token request names them: `{resource}/.default` or `{resource}/AllSites.Read`
// (v2.0 endpoint), or `resource=` (v1.0), plus the OpenID ones (openid, profile, email,
// offline_access). spemu issues tokens for one kind of resource: SharePoint, at an origin it
// answers for (the host the request came in on, a host name of the tenant, or a loopback
// name, any port). SharePoint's app id (`00000003-0000-0ff1-ce00-000000000000/.default`)
// means the origin the token endpoint was called on.

import { SHAREPOINT_APP_ID } from '../../identity/tokens.ts';
import { hostNameOf } from '../../pipeline/origin.ts';
import { entraErrors } from './errors.ts';

export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

/** What `.default` grants a user's token: every delegated SharePoint permission (spemu models no consent). */
export const DEFAULT_DELEGATED_SCOPES = ['AllSites.FullControl', 'AllSites.Manage', 'AllSites.Read', 'AllSites.Write', 'MyFiles.Read', 'MyFiles.Write'];

export interface RequestedScopes {
  /** The SharePoint resource's origin: the token's audience. */
  resource: string;
  /** Permission names without the resource: `.default`, `AllSites.Read`. */
  names: string[];
  oidc: string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

export interface ScopeContext {
  /** The origin the token endpoint was called on. */
  origin: string;
  tenantHosts: readonly string[];
  tenantName: string;
}

/** The resource a scope's prefix names, if spemu serves it. */
function resourceOf(prefix: string, ctx: ScopeContext): string | undefined {
  if (prefix.toLowerCase() === SHAREPOINT_APP_ID) return new URL(ctx.origin).origin;
  let url: URL;
  try {
    url = new URL(prefix);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = hostNameOf(url.origin);
  const ours = host === hostNameOf(ctx.origin) || ctx.tenantHosts.includes(host) || LOOPBACK.includes(host);
  return ours && (url.pathname === '/' || url.pathname === '') ? url.origin : undefined;
}

/** v2.0: `scope`, space-separated. Throws Entra's invalid_scope / invalid_resource. */
export function parseScopes(text: string, ctx: ScopeContext): RequestedScopes {
  const oidc: string[] = [];
  const names: string[] = [];
  let resource: string | undefined;
  for (const scope of text.split(/\s+/).filter(Boolean)) {
    if (OIDC_SCOPES.includes(scope.toLowerCase())) {
      oidc.push(scope.toLowerCase());
      continue;
    }
    const slash = scope.lastIndexOf('/');
    if (slash <= 0 || slash === scope.length - 1) throw entraErrors.invalidScope(scope);
    const prefix = scope.slice(0, slash);
    const found = resourceOf(prefix, ctx);
    if (!found) throw entraErrors.unknownResource(prefix, ctx.tenantName);
    // One resource per token, as Entra requires.
    if (resource !== undefined && resource !== found) throw entraErrors.invalidScope(scope);
    resource = found;
    names.push(scope.slice(slash + 1));
  }
  if (resource === undefined) throw entraErrors.invalidScope(text.trim() || "''");
  return { resource, names, oidc };
}

/** v1.0: `resource=https://host`. */
export function parseResource(text: string, ctx: ScopeContext): RequestedScopes {
  const found = resourceOf(text.replace(/\/+$/, ''), ctx);
  if (!found) throw entraErrors.unknownResource(text, ctx.tenantName);
  return { resource: found, names: ['.default'], oidc: [] };
}

/** The delegated permissions a user's token carries (scp). */
export function delegatedScopes(names: readonly string[]): string[] {
  const named = names.filter((n) => n !== '.default');
  return names.includes('.default') ? [...new Set([...DEFAULT_DELEGATED_SCOPES, ...named])] : named;
}
