// A site collection's SharePoint groups: the three a new SharePoint site gets, "<title>
// Owners" (3), "<title> Visitors" (4) and "<title> Members" (5), numbered as SharePoint
// numbers them, whose members are the site's role holders in the directory
// (store.directory.siteRoles), so their membership is the site's permissions; and the
// site's own groups (store.siteGroups), whose members are site users and which grant nothing
// by themselves.

import type { Site } from '../domain/model.ts';
import { DEFAULT_GROUP_IDS } from '../domain/principal-ids.ts';
import type { SiteRoleName } from '../store/directory.ts';
import type { StoreReader } from '../store/store.ts';
import { directoryPrincipal, findSiteUser, loginNameOf, type SitePrincipal } from './site-users.ts';

export interface SiteGroupDef {
  id: number;
  /** The site role a default group stands for; null for a group of the site's own. */
  role: SiteRoleName | null;
  title: string;
  description: string;
  /** A site user who owns the group; null: the site's Owners group does. */
  ownerId: number | null;
  allowMembersEditMembership: boolean;
  onlyAllowMembersViewMembership: boolean;
}

// Their ids no site user takes (domain/principal-ids.ts): users and groups share one id space.
const [OWNERS, VISITORS, MEMBERS] = DEFAULT_GROUP_IDS;
const DEFINITIONS: Array<{ id: number; role: SiteRoleName; suffix: string; permission: string }> = [
  { id: OWNERS, role: 'owner', suffix: 'Owners', permission: 'full control' },
  { id: VISITORS, role: 'visitor', suffix: 'Visitors', permission: 'read' },
  { id: MEMBERS, role: 'member', suffix: 'Members', permission: 'edit' },
];

/** The site's groups in id order. Named after the site's title, as SharePoint names them at creation. */
export function siteGroups(site: Site): SiteGroupDef[] {
  return DEFINITIONS.map((d) => ({
    id: d.id, role: d.role, title: `${site.title} ${d.suffix}`,
    description: `Use this group to grant people ${d.permission} permissions to the SharePoint site: ${site.title}`,
    ownerId: null, allowMembersEditMembership: false, onlyAllowMembersViewMembership: false,
  }));
}

/** The default groups and the site's own, in id order. */
export async function allSiteGroups(store: Pick<StoreReader, 'siteGroups'>, site: Site): Promise<SiteGroupDef[]> {
  const own = (await store.siteGroups.of(site.id)).map((g): SiteGroupDef => ({ ...g, role: null }));
  return [...siteGroups(site), ...own];
}

export const siteGroupById = (site: Site, id: number) => siteGroups(site).find((g) => g.id === id);
export const siteGroupByName = (site: Site, name: string) => siteGroups(site).find((g) => g.title.toLowerCase() === name.toLowerCase());
export const siteGroupOfRole = (site: Site, role: SiteRoleName) => siteGroups(site).find((g) => g.role === role)!;

/** Who holds a default group's role, in the order the site lists them; names the directory no longer knows are skipped. */
export async function groupMembers(store: StoreReader, site: Site, group: SiteGroupDef): Promise<SitePrincipal[]> {
  const members: SitePrincipal[] = [];
  if (group.role === null) return members;
  for (const role of await store.directory.siteRoles(site.id)) {
    if (role.role !== group.role) continue;
    const who = await directoryPrincipal(store, role.principal);
    if (who) members.push(who);
  }
  return members;
}

/** The site roles a directory principal holds directly (a group's role counts for the group itself only). */
export async function directRoles(store: StoreReader, site: Site, who: SitePrincipal): Promise<Set<SiteRoleName>> {
  const key = who.kind === 'user' ? who.user.upn.toLowerCase() : who.kind === 'group' ? who.group.id.toLowerCase() : undefined;
  const roles = new Set<SiteRoleName>();
  if (key === undefined) return roles;
  for (const role of await store.directory.siteRoles(site.id)) if (role.principal === key) roles.add(role.role);
  return roles;
}

/** The site groups a user is in, directly or through directory groups; a directory group is in the groups that list it. */
export async function groupsOfPrincipal(store: StoreReader, site: Site, who: SitePrincipal): Promise<SiteGroupDef[]> {
  const keys = new Set<string>();
  if (who.kind === 'user') {
    keys.add(who.user.upn.toLowerCase());
    for (const g of await store.directory.groupsOf(who.user.upn)) keys.add(g.id.toLowerCase());
  } else if (who.kind === 'group') {
    keys.add(who.group.id.toLowerCase());
  }
  const roles = new Set<SiteRoleName>();
  for (const role of await store.directory.siteRoles(site.id)) if (keys.has(role.principal)) roles.add(role.role);
  // The site's own groups hold site users: the principal's row, if it has one.
  const row = await findSiteUser(store, site, loginNameOf(who));
  const own = row ? new Set(await store.siteGroups.groupsOf(site.id, row.id)) : new Set<number>();
  return (await allSiteGroups(store, site)).filter((g) => (g.role !== null && roles.has(g.role)) || own.has(g.id));
}
