// Loads a tenant file's unique permissions (validated by permission-problems.ts) once a site's
// webs, lists, items, folders and files all exist: parents first, so that `copy` copies what
// the parent was given. Each object's assignments are written through the store's role
// assignments, as breakRoleInheritance and addRoleAssignment write them, so effective
// permissions, security trimming, HasUniqueRoleAssignments and the change log all follow.

import { splitPath } from '../domain/documents.ts';
import type { List, Site, Web } from '../domain/model.ts';
import { urlPrefix } from '../domain/names.ts';
import { assignmentsOf, defaultAssignments, scopeKey, type Securable } from '../identity/effective-permissions.ts';
import { resolveLogin } from '../identity/logins.ts';
import { allRoleDefinitions } from '../identity/role-levels.ts';
import { allSiteGroups } from '../identity/site-groups.ts';
import { ensureSiteUser } from '../identity/site-users.ts';
import type { RoleAssignmentRow } from '../store/role-assignments.ts';
import type { Store } from '../store/store.ts';
import { folderPath, type TenantList, type TenantPermissions, type TenantSite, type TenantWeb } from './types.ts';

/** The site's permissions as the file states them; `web` is its root web. */
export async function loadPermissions(store: Store, site: Site, web: Web, def: TenantSite, now: string): Promise<void> {
  const load = new PermissionLoad(store, site, now);
  if (def.permissions?.assignments?.length) {
    // The root web's assignments are implicit (its default groups') until its first change.
    const rows = await load.rows(def.permissions);
    const own = await store.roleAssignments.scopes(site.id);
    await store.roleAssignments.breakInheritance(site.id, scopeKey({ kind: 'web', web }), [...(own.get(`web:${web.id}`) ?? defaultAssignments(site)), ...rows]);
  }
  await load.web(web, def);
}

class PermissionLoad {
  constructor(private readonly store: Store, private readonly site: Site, private readonly now: string) {}

  async web(web: Web, def: { lists?: TenantList[]; webs?: TenantWeb[] }): Promise<void> {
    const lists = await this.store.lists.inWeb(web.id);
    for (const l of def.lists ?? []) {
      const list = lists.find((x) => x.title.toLowerCase() === l.title.toLowerCase())!;
      await this.apply({ kind: 'list', web, list }, l.permissions);
      for (const [index, item] of (l.items ?? []).entries()) {
        // Item N of the file has ID N.
        if (item.permissions) await this.apply({ kind: 'item', web, list, id: index + 1 }, item.permissions);
      }
      for (const folder of l.folders ?? []) {
        if (typeof folder !== 'string' && folder.permissions) await this.apply(await this.placed(web, list, folderPath(folder)), folder.permissions);
      }
      for (const file of l.files ?? []) if (file.permissions) await this.apply(await this.placed(web, list, file.path), file.permissions);
    }
    const webs = await this.store.sites.websOf(web.siteId);
    for (const sub of def.webs ?? []) {
      const url = `${urlPrefix(web.serverRelativeUrl)}/${sub.url}`.toLowerCase();
      const child = webs.find((w) => w.serverRelativeUrl.toLowerCase() === url)!;
      await this.apply({ kind: 'web', web: child }, sub.permissions);
      await this.web(child, sub);
    }
  }

  /** Breaks the object's inheritance with the assignments the file states (after its inherited ones, with `copy`). */
  private async apply(s: Securable, permissions: TenantPermissions | undefined): Promise<void> {
    if (!permissions || permissions.inherit !== false) return;
    const inherited = permissions.copy ? (await assignmentsOf(this.store, this.site, s)).assignments : [];
    const rows = [...inherited];
    for (const row of await this.rows(permissions)) {
      if (!rows.some((r) => r.principalId === row.principalId && r.roleDefinitionId === row.roleDefinitionId)) rows.push(row);
    }
    await this.store.roleAssignments.breakInheritance(this.site.id, scopeKey(s), rows);
  }

  /** The file's assignments as rows: each principal a site group or a site user (given a row on first use), each role a level of the site. */
  async rows(permissions: TenantPermissions): Promise<RoleAssignmentRow[]> {
    const levels = await allRoleDefinitions(this.store, this.site.id);
    const groups = await allSiteGroups(this.store, this.site);
    const rows: RoleAssignmentRow[] = [];
    for (const { principal, role } of permissions.assignments ?? []) {
      const level = levels.find((d) => (typeof role === 'number' ? d.id === role : d.name.toLowerCase() === role.trim().toLowerCase()));
      if (!level) throw new Error(`the tenant file names the permission level '${role}', which site ${this.site.url} does not have`);
      rows.push({ principalId: await this.principalId(principal, groups), roleDefinitionId: level.id });
    }
    return rows;
  }

  private async principalId(name: string, groups: ReadonlyArray<{ id: number; title: string }>): Promise<number> {
    const group = groups.find((g) => g.title.toLowerCase() === name.trim().toLowerCase());
    if (group) return group.id;
    const who = await resolveLogin(this.store, name);
    if (!who) throw new Error(`the tenant file names '${name}', who is neither a user, a group nor a SharePoint group of site ${this.site.url}`);
    return (await ensureSiteUser(this.store, this.site, who, { now: this.now })).id;
  }

  /** A folder or file of the list, by its path in the list, as a securable item. */
  private async placed(web: Web, list: List, path: string): Promise<Securable> {
    const { dir, name } = splitPath(path);
    const found = await this.store.documents.at(list, await this.store.fields.of(list), dir, name);
    if (!found) throw new Error(`'${path}' of list '${list.title}' was not placed`);
    return { kind: 'item', web, list, id: found.id };
  }
}
