// SharePoint groups of a site collection: the site's own (made, renamed, owned, deleted,
// their members site users) and the three default groups, whose members are the site's role
// holders: adding someone to "Dev Members" gives them the member role, removing takes it away,
// so group membership is the site's permissions, as in SharePoint.

import { fail } from '../domain/errors.ts';
import type { Site } from '../domain/model.ts';
import { allSiteGroups, type SiteGroupDef } from '../identity/site-groups.ts';
import { loginNameOf, userInfoList, type SitePrincipal } from '../identity/site-users.ts';
import type { SiteGroupPatch } from '../store/site-groups.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { PrincipalService } from './principals.ts';

export interface NewGroupInput {
  title: string;
  description?: string | undefined;
  allowMembersEditMembership?: boolean | undefined;
  onlyAllowMembersViewMembership?: boolean | undefined;
}

/** Characters SharePoint refuses in a group's name. */
const INVALID_NAME = /["/\\[\]:|<>+=;,?*'@]/;

/** The directory key a site role names a principal by (a user's UPN, a group's id). */
function roleKey(who: SitePrincipal): string | undefined {
  return who.kind === 'user' ? who.user.upn.toLowerCase() : who.kind === 'group' ? who.group.id.toLowerCase() : undefined;
}

export class SiteGroupService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** A group of the site's own, owned by whoever makes it; its id is a principal id no user has. */
  async create(site: Site, input: NewGroupInput): Promise<SiteGroupDef> {
    const title = await this.checkTitle(site, input.title);
    const { list } = await userInfoList(this.store, site);
    const id = await this.store.items.reserveId(list);
    const group = {
      id, title, description: input.description ?? '', ownerId: this.actor.userId,
      allowMembersEditMembership: input.allowMembersEditMembership ?? false, onlyAllowMembersViewMembership: input.onlyAllowMembersViewMembership ?? false,
    };
    if (!(await this.store.siteGroups.add(site.id, group))) throw fail.groupNameTaken(title);
    return { ...group, role: null };
  }

  async update(site: Site, group: SiteGroupDef, patch: SiteGroupPatch): Promise<void> {
    own(group);
    const title = patch.title === undefined ? undefined : await this.checkTitle(site, patch.title, group.id);
    const updated = await this.store.siteGroups.update(site.id, group.id, { ...patch, ...(title !== undefined ? { title } : {}) });
    if (updated === 'titleTaken') throw fail.groupNameTaken(patch.title!);
    if (!updated) throw fail.groupNotFound();
  }

  async delete(site: Site, group: SiteGroupDef): Promise<void> {
    own(group);
    if (!(await this.store.siteGroups.delete(site.id, group.id))) throw fail.groupNotFound();
  }

  async setOwner(site: Site, group: SiteGroupDef, ownerId: number): Promise<void> {
    own(group);
    const { list, fields } = await userInfoList(this.store, site);
    if (!(await this.store.items.get(list, fields, ownerId))) throw fail.userNotFound();
    await this.store.siteGroups.update(site.id, group.id, { ownerId });
  }

  /** Adds a principal (made a site user if need be); to a default group, as a holder of its role. */
  async addMember(site: Site, group: SiteGroupDef, who: SitePrincipal): Promise<number> {
    const row = await new PrincipalService(this.store, this.actor).ensure(site, who, this.actor.userId);
    if (group.role === null) {
      await this.store.siteGroups.addMember(site.id, group.id, row.id);
      return row.id;
    }
    const key = roleKey(who);
    if (key === undefined) throw fail.badArgument(`${loginNameOf(who)} cannot hold a role of this site.`);
    const role = group.role;
    await this.store.transaction(async (tx) => {
      const roles = await tx.directory.siteRoles(site.id);
      if (!roles.some((r) => r.role === role && r.principal === key)) await tx.directory.setSiteRoles(site.id, [...roles, { role, principal: key }]);
    });
    return row.id;
  }

  /** Removes a member; from a default group, the principal's holding of its role (not a role held through a directory group). */
  async removeMember(site: Site, group: SiteGroupDef, userId: number, who: SitePrincipal | undefined): Promise<void> {
    if (group.role === null) {
      if (!(await this.store.siteGroups.removeMember(site.id, group.id, userId))) throw fail.userNotFound();
      return;
    }
    const key = who ? roleKey(who) : undefined;
    const role = group.role;
    await this.store.transaction(async (tx) => {
      const roles = await tx.directory.siteRoles(site.id);
      const kept = roles.filter((r) => !(r.role === role && r.principal === key));
      if (kept.length === roles.length) throw fail.userNotFound();
      await tx.directory.setSiteRoles(site.id, kept);
    });
  }

  private async checkTitle(site: Site, title: string, except?: number): Promise<string> {
    const name = title.trim();
    if (!name) throw fail.badArgument('The group needs a Title.');
    if (name.length > 255 || INVALID_NAME.test(name)) throw fail.badArgument(`The group name "${name}" contains characters that are not allowed or is too long.`);
    if ((await allSiteGroups(this.store, site)).some((g) => g.id !== except && g.title.toLowerCase() === name.toLowerCase())) throw fail.groupNameTaken(name);
    return name;
  }
}

/** The default groups stand for the site's roles: spemu does not rename, re-own or delete them. */
function own(group: SiteGroupDef): void {
  if (group.role !== null) throw fail.defaultGroup(group.title);
}
