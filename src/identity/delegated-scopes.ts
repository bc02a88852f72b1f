// What a delegated token's `scp` lets it do on a site: it acts with the user's permissions,
// never more than its SharePoint scopes allow.

import type { SiteRoleName } from '../domain/model.ts';

/**
 * The strongest site role SharePoint's delegated scopes allow: AllSites.FullControl any,
 * AllSites.Manage and AllSites.Write Edit (member), AllSites.Read Read (visitor). A token naming
 * none of them (MyFiles.*, other APIs' scopes) is not capped: spemu has no OneDrive to tell apart.
 */
export function scopeCap(scp: string | undefined): SiteRoleName | undefined {
  const scopes = new Set((scp ?? '').split(' ').map((s) => s.toLowerCase()));
  if (scopes.has('allsites.fullcontrol')) return undefined;
  if (scopes.has('allsites.manage') || scopes.has('allsites.write')) return 'member';
  if (scopes.has('allsites.read')) return 'visitor';
  return undefined;
}
