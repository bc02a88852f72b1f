// Who counts as a SharePoint administrator, for what SharePoint Online reserves to one
// (tenant-wide site scripts; spemu's own run-time switches at /_spemu/faults). spemu's directory
// has no SharePoint Administrator role, so its stand-in is a user who owns at least one site
// collection of the tenant, directly or through a group; an app-only caller counts when its
// grant gives it Full Control where it calls (Sites.FullControl.All, or a Sites.Selected
// `fullcontrol` grant on that site).

import type { Principal } from '../domain/model.ts';
import { fail } from '../domain/errors.ts';
import type { StoreReader } from '../store/store.ts';
import { siteRoleOf } from './roles.ts';

type Reader = Pick<StoreReader, 'sites' | 'directory'>;

/** Whether the directory user owns at least one site collection of the tenant. */
export async function ownsAnySite(store: Reader, upn: string): Promise<boolean> {
  for (const site of await store.sites.all()) {
    if (await siteRoleOf(store.directory, site.id, upn) === 'owner') return true;
  }
  return false;
}

/** Whether the caller (as authorized on the site the request addresses) is a SharePoint administrator. */
export async function isSharePointAdmin(store: Reader, caller: Principal): Promise<boolean> {
  if (caller.upn === null) return caller.role === 'owner';
  return ownsAnySite(store, caller.upn);
}

/** SharePoint's 403 unless the caller is a SharePoint administrator. */
export async function requireSharePointAdmin(store: Reader, caller: Principal): Promise<void> {
  if (!(await isSharePointAdmin(store, caller))) throw fail.accessDenied();
}
