// Who is making the request. The identity work replaces this stage with real Basic,
// Bearer and cookie authentication; until then every request acts as the site's first
// owner, so that Author/Editor and permission checks already have a principal to use.

import type { Principal, Site } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { errors } from '../errors.ts';

export interface RequestCredentials {
  authorization?: string | undefined;
  cookie?: string | undefined;
}

export interface Authenticator {
  authenticate(site: Site, credentials: RequestCredentials): Promise<Principal>;
}

/** Setting key under which the tenant loader records a site's acting user. */
export const siteDefaultUserKey = (siteId: string) => `site.defaultUser.${siteId}`;

export function siteOwnerAuthenticator(store: Store): Authenticator {
  return {
    async authenticate(site) {
      const value = await store.getSetting(siteDefaultUserKey(site.id));
      if (!value) throw errors.accessDenied();
      const stored = JSON.parse(value) as Pick<Principal, 'userId' | 'loginName'>;
      const upn = stored.loginName.startsWith('i:0#.f|membership|') ? stored.loginName.slice('i:0#.f|membership|'.length) : null;
      return { ...stored, upn, role: 'owner', via: 'anonymous' };
    },
  };
}
