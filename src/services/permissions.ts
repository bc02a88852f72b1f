// Changing who may do what on a web, list or item: breaking and resetting inheritance, adding
// and removing role assignments. An object with unique permissions has its own assignments;
// breaking copies the ones it had (or, without copying, gives the caller Full Control so that
// nobody locks themselves out, as SharePoint does); `clearSubscopes` makes everything below
// inherit again. Assignments change only where permissions are unique.

import { fail } from '../domain/errors.ts';
import type { Site } from '../domain/model.ts';
import { ROLE_LEVEL } from '../domain/permissions.ts';
import { allRoleDefinitions } from '../identity/role-levels.ts';
import { assignmentsOf, defaultAssignments, scopeKey, type Securable } from '../identity/effective-permissions.ts';
import { allSiteGroups } from '../identity/site-groups.ts';
import { userInfoList } from '../identity/site-users.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

export class PermissionService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async breakInheritance(site: Site, s: Securable, copyRoleAssignments: boolean, clearSubscopes: boolean): Promise<void> {
    const current = await assignmentsOf(this.store, site, s);
    await this.store.transaction(async (tx) => {
      if (!current.unique || isRootWeb(s)) {
        const assignments = copyRoleAssignments ? current.assignments
          : [{ principalId: this.actor.userId, roleDefinitionId: ROLE_LEVEL.owner.id }];
        await tx.roleAssignments.breakInheritance(site.id, scopeKey(s), isRootWeb(s) && current.unique && !copyRoleAssignments ? defaultAssignments(site) : assignments);
      }
      // Read through the transaction: on SQLite a read outside it would wait for its one connection, which the transaction holds.
      if (clearSubscopes) await tx.roleAssignments.resetBelow(site.id, await below(tx, site, s));
    });
  }

  async resetInheritance(site: Site, s: Securable): Promise<void> {
    if (isRootWeb(s)) throw fail.badArgument('The root web of a site collection has no parent to inherit from.');
    await this.store.roleAssignments.resetInheritance(site.id, scopeKey(s));
  }

  async add(site: Site, s: Securable, principalId: number, roleDefinitionId: number): Promise<void> {
    await this.checkPrincipal(site, principalId);
    if (!(await allRoleDefinitions(this.store, site.id)).some((d) => d.id === roleDefinitionId)) throw fail.roleDefinitionNotFound();
    const current = await assignmentsOf(this.store, site, s);
    if (!current.unique) throw fail.inheritsPermissions();
    // The root web's assignments are implicit until its first change.
    if (isRootWeb(s) && !(await this.store.roleAssignments.scopes(site.id)).has(scopeKey(s))) {
      await this.store.roleAssignments.breakInheritance(site.id, scopeKey(s), [...defaultAssignments(site), { principalId, roleDefinitionId }]);
      return;
    }
    await this.store.roleAssignments.add(site.id, scopeKey(s), { principalId, roleDefinitionId });
  }

  async remove(site: Site, s: Securable, principalId: number, roleDefinitionId?: number): Promise<void> {
    const current = await assignmentsOf(this.store, site, s);
    if (!current.unique) throw fail.inheritsPermissions();
    if (isRootWeb(s) && !(await this.store.roleAssignments.scopes(site.id)).has(scopeKey(s))) {
      const kept = defaultAssignments(site).filter((a) => !(a.principalId === principalId && (roleDefinitionId === undefined || a.roleDefinitionId === roleDefinitionId)));
      await this.store.roleAssignments.breakInheritance(site.id, scopeKey(s), kept);
      return;
    }
    await this.store.roleAssignments.remove(site.id, scopeKey(s), principalId, roleDefinitionId);
  }

  /** A principal of the site: a user's row, a default group, or a group of the site's own. */
  private async checkPrincipal(site: Site, principalId: number): Promise<void> {
    if ((await allSiteGroups(this.store, site)).some((g) => g.id === principalId)) return;
    const { list, fields } = await userInfoList(this.store, site);
    if (!(await this.store.items.get(list, fields, principalId))) throw fail.principalNotFound(principalId);
  }
}

/** The scope key prefixes of everything below an object (for clearSubscopes), read through `store`. */
async function below(store: Store, site: Site, s: Securable): Promise<string[]> {
  if (s.kind === 'item') return [];
  if (s.kind === 'list') return [`item:${s.list.rowId}:`];
  const prefixes: string[] = [];
  const webs = (await store.sites.websOf(site.id)).filter((w) => w.id !== s.web.id && w.serverRelativeUrl.toLowerCase().startsWith(`${s.web.serverRelativeUrl.toLowerCase().replace(/\/$/, '')}/`));
  for (const web of [s.web, ...webs]) {
    if (web.id !== s.web.id) prefixes.push(`web:${web.id}`);
    for (const list of await store.lists.inWeb(web.id)) prefixes.push(`list:${list.rowId}`, `item:${list.rowId}:`);
  }
  return prefixes;
}

const isRootWeb = (s: Securable): boolean => s.kind === 'web' && s.web.parentId === null;
