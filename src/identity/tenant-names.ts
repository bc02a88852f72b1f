// The names a tenant answers to in identity URLs (`/{tenant}/oauth2/v2.0/token`), as Entra ID
// does: its id (a GUID), the domains it uses (`<name>.onmicrosoft.com` and the domains of its
// users' UPNs), and the multi-tenant aliases `common` and `organizations` (which mean "this
// tenant" here: spemu serves one).

import { TENANT_ID_KEY, TENANT_NAME_KEY } from '../domain/settings.ts';
import type { StoreReader } from '../store/store.ts';

export const MULTI_TENANT_ALIASES = ['common', 'organizations'] as const;

export interface TenantNames {
  tenantId: string;
  tenantName: string;
  /** Domain names, lower case. */
  domains: string[];
}

/** Users change only when a seed is loaded; the domains are recomputed at most this often. */
const DOMAINS_TTL_MS = 30_000;
let cached: { at: number; key: string; names: TenantNames } | undefined;

export async function tenantNames(store: Pick<StoreReader, 'settings' | 'directory'>): Promise<TenantNames> {
  const tenantId = ((await store.settings.get(TENANT_ID_KEY)) ?? '').toLowerCase();
  const tenantName = (await store.settings.get(TENANT_NAME_KEY)) ?? '';
  const key = `${tenantId}\n${tenantName}`;
  if (cached && cached.key === key && Date.now() - cached.at < DOMAINS_TTL_MS) return cached.names;
  const domains = new Set([`${tenantName}.onmicrosoft.com`.toLowerCase()]);
  for (const user of await store.directory.listUsers()) domains.add(user.upn.slice(user.upn.indexOf('@') + 1).toLowerCase());
  const names = { tenantId, tenantName, domains: [...domains] };
  cached = { at: Date.now(), key, names };
  return names;
}

/** What a `{tenant}` path segment names: this tenant (by id, domain or alias), or nothing. */
export function resolveTenantSegment(names: TenantNames, segment: string): 'id' | 'domain' | 'alias' | undefined {
  const s = segment.toLowerCase();
  if (names.tenantId && s === names.tenantId) return 'id';
  if ((MULTI_TENANT_ALIASES as readonly string[]).includes(s)) return 'alias';
  if (names.domains.includes(s)) return 'domain';
  return undefined;
}
