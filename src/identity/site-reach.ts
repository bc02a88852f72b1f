// Whether a caller can reach another site collection of the tenant than the one its request
// addressed (the pipeline authorized it there only): what `_api/HubSites` filters by, as
// SharePoint lists only the hubs whose sites the user can see. A directory user reaches a site
// where it holds a role, directly or through a group; a caller that is no directory user
// (SharePoint's System Account, an app-only token, whose grants spemu gives tenant-wide) reaches
// every site.

import type { Principal } from '../domain/model.ts';
import type { StoreReader } from '../store/store.ts';
import { siteRoleOf } from './roles.ts';

export async function canReachSite(store: Pick<StoreReader, 'directory'>, caller: Principal, currentSiteId: string, siteId: string): Promise<boolean> {
  if (siteId === currentSiteId || caller.upn === null) return true;
  return (await siteRoleOf(store.directory, siteId, caller.upn)) !== 'none';
}
