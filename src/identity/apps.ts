// App registrations (Entra ID's "app registrations" and their service principals), as the
// tenant loader stores them: client secrets only as scrypt hashes, certificates as their PEM
// and thumbprints, the SharePoint permissions granted (application permissions) and, for
// Sites.Selected, the sites and the role granted on each. Kept in one setting (TENANT_APPS_KEY),
// rewritten whenever a seed is loaded, so apps can change without resetting the tenant.

import { createHash, X509Certificate } from 'node:crypto';
import type { SiteRoleName } from '../domain/model.ts';
import { TENANT_APPS_KEY } from '../domain/settings.ts';
import type { StoreReader } from '../store/store.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** SharePoint's application permissions (the `roles` of an app-only token). */
export const SITE_PERMISSIONS = ['Sites.FullControl.All', 'Sites.Manage.All', 'Sites.ReadWrite.All', 'Sites.Read.All', 'Sites.Selected'] as const;
export type SitePermission = typeof SITE_PERMISSIONS[number];

/** What Sites.Selected grants on one site (Graph's site permission roles). */
export type SelectedRole = 'read' | 'write' | 'manage' | 'fullcontrol';

export interface StoredCertificate {
  /** SHA-1 and SHA-256 thumbprints, upper-case hex without separators (as the Entra portal shows them). */
  sha1: string;
  sha256: string;
  pem: string;
  notAfter: string;
}

export interface RegisteredApp {
  clientId: string;
  displayName: string;
  /** The service principal's object id: the `oid` and `sub` of its tokens. */
  objectId: string;
  /** scrypt hashes of the client secrets. */
  secrets: Array<{ hash: string; hint: string; expires?: string }>;
  certificates: StoredCertificate[];
  redirectUris: string[];
  permissions: SitePermission[];
  /** Sites.Selected: server-relative site URLs (lower case) and the role granted on each. */
  sites: Array<{ url: string; role: SelectedRole }>;
  /** A public client (no secret needed for ROPC, device code). */
  publicClient: boolean;
}

/** An app as the tenant file describes it (clear-text secrets, PEM certificates). */
export interface AppDefinition {
  clientId: string;
  displayName: string;
  secrets?: Array<string | { value: string; expires?: string }>;
  certificates?: string[];
  redirectUris?: string[];
  permissions?: string[];
  sites?: Array<{ url: string; role: SelectedRole }>;
  publicClient?: boolean;
}

const hex = (fingerprint: string) => fingerprint.replace(/:/g, '').toUpperCase();

/** A PEM certificate's thumbprints; throws on one node cannot read. */
export function certificateOf(pem: string): StoredCertificate {
  const cert = new X509Certificate(pem);
  return { sha1: hex(cert.fingerprint), sha256: hex(cert.fingerprint256), pem: cert.toString(), notAfter: new Date(cert.validTo).toISOString() };
}

/** A stable GUID-shaped id from a seed. */
export function stableGuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The tenant file's apps as stored: secrets hashed (never kept in clear). */
export async function registerApps(tenantName: string, apps: readonly AppDefinition[]): Promise<RegisteredApp[]> {
  const out: RegisteredApp[] = [];
  for (const app of apps) {
    const secrets = [];
    for (const s of app.secrets ?? []) {
      const value = typeof s === 'string' ? s : s.value;
      secrets.push({ hash: await hashPassword(value), hint: value.slice(0, 3), ...(typeof s === 'object' && s.expires ? { expires: s.expires } : {}) });
    }
    out.push({
      clientId: app.clientId.toLowerCase(), displayName: app.displayName, objectId: stableGuid(`${tenantName}\napp\n${app.clientId.toLowerCase()}`),
      secrets, certificates: (app.certificates ?? []).map(certificateOf), redirectUris: app.redirectUris ?? [],
      permissions: (app.permissions ?? []).filter((p): p is SitePermission => (SITE_PERMISSIONS as readonly string[]).includes(p)),
      sites: (app.sites ?? []).map((s) => ({ url: s.url.toLowerCase().replace(/\/+$/, '') || '/', role: s.role })),
      publicClient: app.publicClient ?? false,
    });
  }
  return out;
}

/** The tenant file without its apps' clear-text secrets: what may be stored as the loaded file. */
export function withoutAppSecrets<T extends { apps?: Array<{ secrets?: unknown[] }> }>(tenant: T): T {
  if (!tenant.apps) return tenant;
  return { ...tenant, apps: tenant.apps.map((a) => ({ ...a, secrets: (a.secrets ?? []).map(() => '(hashed)') })) };
}

let parsedCache: { text: string; apps: RegisteredApp[] } | undefined;

/** The registered apps (the setting is cached by the store; the parse here). */
export async function registeredApps(store: Pick<StoreReader, 'settings'>): Promise<RegisteredApp[]> {
  const text = (await store.settings.get(TENANT_APPS_KEY)) ?? '[]';
  if (parsedCache?.text !== text) parsedCache = { text, apps: JSON.parse(text) as RegisteredApp[] };
  return parsedCache.apps;
}

export async function findApp(store: Pick<StoreReader, 'settings'>, clientId: string): Promise<RegisteredApp | undefined> {
  const wanted = clientId.trim().toLowerCase();
  return (await registeredApps(store)).find((a) => a.clientId === wanted);
}

/** Whether `secret` is one of the app's unexpired secrets. */
export async function checkAppSecret(app: RegisteredApp, secret: string, now: Date): Promise<boolean> {
  for (const s of app.secrets) {
    if (s.expires && new Date(s.expires).getTime() <= now.getTime()) continue;
    if (await verifyPassword(secret, s.hash)) return true;
  }
  return false;
}

/** Entra's `roles` for an app-only token to SharePoint: the granted application permissions. */
export const appRoles = (app: RegisteredApp): string[] => [...app.permissions];

const SELECTED_ROLE: Record<SelectedRole, SiteRoleName> = { read: 'visitor', write: 'member', manage: 'member', fullcontrol: 'owner' };

/**
 * The role an app-only principal holds on a site, from its granted permissions: FullControl
 * → owner (Full Control), Manage and ReadWrite → member (Edit), Read → visitor (Read);
 * Sites.Selected → the role granted on that site, else none.
 */
export function appSiteRole(roles: readonly string[], app: RegisteredApp | undefined, siteUrl: string): SiteRoleName {
  const has = (p: SitePermission) => roles.includes(p);
  if (has('Sites.FullControl.All')) return 'owner';
  if (has('Sites.Manage.All') || has('Sites.ReadWrite.All')) return 'member';
  if (has('Sites.Read.All')) return 'visitor';
  if (has('Sites.Selected') && app) {
    const grant = app.sites.find((s) => s.url === (siteUrl.toLowerCase().replace(/\/+$/, '') || '/'));
    return grant ? SELECTED_ROLE[grant.role] : 'none';
  }
  return 'none';
}

/** Whether roles carry any SharePoint application permission at all (else SharePoint's "Unsupported app only token."). */
export const hasSitePermission = (roles: readonly string[]) => roles.some((r) => (SITE_PERMISSIONS as readonly string[]).includes(r));
