// What an Entra-shaped token must say to be accepted on a request (identity/entra-tokens.ts
// checks the signature and lifetime): its issuer is this tenant's, at a host spemu answers for
// (the request's own host, one of the tenant's host names, or a loopback name); its audience
// is the origin the request came in on, or `https://<host>` for one of the tenant's host names
// (the SharePoint resource a client names when it asks Entra for `https://contoso.sharepoint.com/.default`).

import { TENANT_HOSTS_KEY, TENANT_ID_KEY } from '../domain/settings.ts';
import type { StoreReader } from '../store/store.ts';
import { hostNameOf } from './origin.ts';

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/** An origin as URL writes it (lower-case scheme and host, no default port, no slash); undefined for what is not one. */
function normalOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.pathname === '/' && !url.search && !url.hash ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export async function entraChecks(store: Pick<StoreReader, 'settings'>, origin: string): Promise<{ issuer: (iss: string) => boolean; audience: (aud: string) => boolean }> {
  const tenantId = ((await store.settings.get(TENANT_ID_KEY)) ?? '').toLowerCase();
  const hosts = JSON.parse((await store.settings.get(TENANT_HOSTS_KEY)) ?? '[]') as string[];
  const issuerHosts = new Set([hostNameOf(origin), ...hosts, ...LOOPBACK]);
  const audiences = new Set([normalOrigin(origin), ...hosts.map((h) => normalOrigin(`https://${h}`))].filter((a) => a !== undefined));
  return {
    issuer: (iss) => {
      let url: URL;
      try {
        url = new URL(iss);
      } catch {
        return false;
      }
      const path = url.pathname.toLowerCase();
      const ours = path === `/${tenantId}/` || path === `/${tenantId}/v2.0`;
      return tenantId !== '' && ours && (url.protocol === 'https:' || url.protocol === 'http:') && issuerHosts.has(hostNameOf(url.origin)) && !url.search && !url.hash;
    },
    audience: (aud) => {
      const normal = normalOrigin(aud);
      return normal !== undefined && audiences.has(normal);
    },
  };
}
