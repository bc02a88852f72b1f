// Trusted security token issuers, as SharePoint Server registers them for high-trust
// (provider-hosted, S2S) add-ins with New-SPTrustedSecurityTokenIssuer -IsTrustBroker: an issuer
// id and the certificate whose private key signs the add-ins' tokens. Tenant-level, not per
// app, as in SharePoint: one issuer vouches for any registered add-in (the token's nameid names
// which). Kept in one setting (TENANT_TRUSTED_ISSUERS_KEY), rewritten whenever a seed is loaded.

import { TENANT_TRUSTED_ISSUERS_KEY } from '../domain/settings.ts';
import type { StoreReader } from '../store/store.ts';
import { certificateOf, type StoredCertificate } from './apps.ts';

export interface TrustedIssuer {
  /** Lower case. */
  issuerId: string;
  name: string;
  certificate: StoredCertificate;
}

/** The tenant file's issuers as stored (certificate files already read into PEM text). */
export function registerIssuers(issuers: ReadonlyArray<{ issuerId: string; name?: string; pem: string }>): TrustedIssuer[] {
  return issuers.map((i) => ({ issuerId: i.issuerId.toLowerCase(), name: i.name ?? i.issuerId.toLowerCase(), certificate: certificateOf(i.pem) }));
}

let parsedCache: { text: string; issuers: TrustedIssuer[] } | undefined;

/** The registered issuers (the setting is cached by the store; the parse here). */
export async function trustedIssuers(store: Pick<StoreReader, 'settings'>): Promise<TrustedIssuer[]> {
  const text = (await store.settings.get(TENANT_TRUSTED_ISSUERS_KEY)) ?? '[]';
  if (parsedCache?.text !== text) parsedCache = { text, issuers: JSON.parse(text) as TrustedIssuer[] };
  return parsedCache.issuers;
}
