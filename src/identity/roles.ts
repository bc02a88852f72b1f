// Which role a directory user holds on a site: the strongest of the roles given to the user
// directly or to any group the user is in, nested groups included (directory.groupsOf).

import type { SiteRoleName } from '../domain/model.ts';
import { strongerRole } from '../domain/permissions.ts';
import type { Directory } from '../store/directory.ts';

export async function siteRoleOf(directory: Pick<Directory, 'siteRoles' | 'groupsOf'>, siteId: string, upn: string): Promise<SiteRoleName> {
  const roles = await directory.siteRoles(siteId);
  if (roles.length === 0) return 'none';
  const holders = new Set([upn.toLowerCase(), ...(await directory.groupsOf(upn)).map((g) => g.id.toLowerCase())]);
  let best: SiteRoleName = 'none';
  for (const { role, principal } of roles) {
    if (holders.has(principal.toLowerCase())) best = strongerRole(best, role);
  }
  return best;
}
