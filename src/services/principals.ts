// Site principals: a directory user or group becomes a site user (a row of the site's User
// Information List) on first use, as a site administrator when the directory makes them an
// owner of the site. Racing calls make one row (identity/site-users.ts holds the list).

import type { Item, Site } from '../domain/model.ts';
import { directRoles } from '../identity/site-groups.ts';
import { ensureSiteUser, findSiteUser, loginNameOf, type SitePrincipal } from '../identity/site-users.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

export class PrincipalService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** `who`'s site user row, made if absent; `addedBy` is recorded as its Author (default: the row itself). */
  async ensure(site: Site, who: SitePrincipal, addedBy?: number): Promise<Item> {
    // The common case, the row exists, reads only.
    const existing = await findSiteUser(this.store, site, loginNameOf(who));
    if (existing) return existing;
    const siteAdmin = (await directRoles(this.store, site, who)).has('owner');
    return ensureSiteUser(this.store, site, who, { siteAdmin, now: this.actor.now(), ...(addedBy !== undefined ? { actorId: addedBy } : {}) });
  }
}
