// authorize(): an identity on a site → the Principal (role, User Information List row), or 403
// when it holds no role there. A delegated token acts with the user's role capped by its scopes;
// an app-only caller acts as SharePoint's `SHAREPOINT\app` with the role its grant gives
// (identity/apps.ts).

import { hasAnyAssignment } from '../identity/effective-permissions.ts';
import type { Principal, Site } from '../domain/model.ts';
import { strongerRole } from '../domain/permissions.ts';
import type { Store } from '../store/store.ts';
import type { DirectoryUser } from '../store/directory.ts';
import { fail } from '../domain/errors.ts';
import { siteRoleOf } from '../identity/roles.ts';
import { ensureSiteUser, findSiteUser, userLogin } from '../identity/site-users.ts';
import { appSiteRole } from '../identity/apps.ts';
import type { AppCaller } from '../identity/app-callers.ts';
import { isoSeconds } from '../domain/values.ts';
import type { Identity } from './caller-identity.ts';
import { GenerationMemo } from '../domain/generation-memo.ts';

/** The login app-only callers act as, and its display name, as SharePoint Online shows them. */
export const APP_PRINCIPAL_LOGIN = 'SHAREPOINT\\app';
export const APP_PRINCIPAL_TITLE = 'SharePoint App';

export function createSiteAuthorizer(store: Store, clock: () => Date): (site: Site, identity: Identity) => Promise<Principal> {
  /** In-flight User Information List row creations, so two first requests make one row. */
  const ensuring = new Map<string, Promise<number>>();
  const siteUserIds = new Map<string, number>();

  async function siteUserId(site: Site, user: DirectoryUser, siteAdmin: boolean): Promise<number> {
    const key = `${site.id}\n${user.upn.toLowerCase()}`;
    // A user's row, once there, keeps its id for good: look it up once per process.
    const known = siteUserIds.get(key);
    if (known !== undefined) return known;
    let pending = ensuring.get(key);
    if (!pending) {
      pending = ensureSiteUser(store, site, { kind: 'user', user }, { siteAdmin, now: isoSeconds(clock().getTime()) })
        .then((row) => { siteUserIds.set(key, row.id); return row.id; });
      ensuring.set(key, pending);
      pending.finally(() => ensuring.delete(key)).catch(() => {});
    }
    return pending;
  }

  /** An app-only caller on a site: `SHAREPOINT\\app`, with the role its grant gives there (403 without one). */
  async function authorizeApp(site: Site, caller: AppCaller): Promise<Principal> {
    const role = appSiteRole(caller.roles, caller.app, site.url);
    if (role === 'none') throw fail.accessDenied();
    const key = `${site.id}\n${APP_PRINCIPAL_LOGIN}`;
    let userId = siteUserIds.get(key);
    if (userId === undefined) {
      const row = await ensureSiteUser(store, site, { kind: 'special', loginName: APP_PRINCIPAL_LOGIN, title: APP_PRINCIPAL_TITLE }, { now: isoSeconds(clock().getTime()) });
      siteUserIds.set(key, row.id);
      userId = row.id;
    }
    return { userId, loginName: APP_PRINCIPAL_LOGIN, upn: null, role, via: 'bearer' };
  }

  /**
   * Principals already worked out, per identity object (proven-identities.ts hands a repeat
   * request the same one) and site id, valid while the store's generation stands: a role, a
   * site user or an app grant that changes invalidates cached metadata and so moves it; at most
   * 1,000 sites per identity; nothing kept inside a transaction. Never kept: a principal with no
   * site role (its access rests on assignments read per check).
   */
  const known = new GenerationMemo<Identity, string, Principal>(1_000);

  // A repeat caller's principal is handed back without an async frame of its own.
  return (site, identity) => {
    const generation = store.generation();
    const hit = known.get(identity, generation, site.id);
    return hit ? Promise.resolve(hit) : workOut(site, identity, generation);
  };

  async function workOut(site: Site, identity: Identity, generation: number): Promise<Principal> {
    // Frozen, kept or not: a kept one is shared by the identity's later requests; no request writes to it.
    const principal = Object.freeze(await principalOn(site, identity));
    if (principal.role !== 'none') known.keep(identity, generation, store.generation(), site.id, principal);
    return principal;
  }

  async function principalOn(site: Site, identity: Identity): Promise<Principal> {
    if (identity.app) return authorizeApp(site, identity.app);
    const held = await siteRoleOf(store.directory, site.id, identity.user.upn);
    // A delegated token acts with the user's permissions, no more than its scopes allow.
    const role = identity.scopeCap && held !== 'none' && strongerRole(held, identity.scopeCap) === held ? identity.scopeCap : held;
    if (role === 'none') {
      // No role on the site, but maybe something in it was shared with them (a role assignment on a list or an item).
      const row = await findSiteUser(store, site, userLogin(identity.user.upn));
      const principal: Principal = { userId: row?.id ?? -1, loginName: userLogin(identity.user.upn), upn: identity.user.upn, role, via: identity.via };
      if (!(await hasAnyAssignment(store, site, principal))) throw fail.accessDenied();
      if (row) return principal;
      // Given access only through a claim that covers them ("Everyone except external users", a
      // directory group): they become a site user on first sign-in, as SharePoint adds them.
      const added = await ensureSiteUser(store, site, { kind: 'user', user: identity.user }, { now: isoSeconds(clock().getTime()) });
      return { ...principal, userId: added.id };
    }
    const userId = await siteUserId(site, identity.user, held === 'owner');
    return { userId, loginName: userLogin(identity.user.upn), upn: identity.user.upn, role, via: identity.via };
  }
}
