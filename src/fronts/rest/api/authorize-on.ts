// The checks a handler makes on objects its path did not address: where a move or copy reads
// and writes, the folder an item is added to by path, the object whose role assignments are read. The same rule as the resolver's
// (resolve.ts authorizeAt): the site role where nothing is unique, else the object's effective
// permissions (its own, its folders', its list's, its web's).

import { fail } from '../../../domain/errors.ts';
import type { Item, List, Web } from '../../../domain/model.ts';
import { grants, type PermissionKind } from '../../../domain/permissions.ts';
import { effectivePermissions, folderSecurable, type Securable } from '../../../identity/effective-permissions.ts';
import { hasPermission, requirePermission } from '../../../identity/permissions.ts';
import type { ApiContext } from './context.ts';

async function requireOn(securable: (web: Web) => Promise<Securable>, list: List, kind: PermissionKind, ctx: ApiContext): Promise<void> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return requirePermission(ctx.principal, kind);
  const web = list.webId === ctx.web.id ? ctx.web : await ctx.store.sites.web(list.webId) ?? ctx.web;
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, await securable(web)), kind)) throw fail.accessDenied();
}

/** `kind` on the file or folder `item` of `list`. */
export const requireOnItem = (list: List, item: Item, kind: PermissionKind, ctx: ApiContext): Promise<void> =>
  requireOn(async (web) => ({ kind: 'item', web, list, id: item.id, dir: item.place.dir }), list, kind, ctx);

/** Whether the caller has `kind` on the item (requireOnItem's rule, answered rather than thrown: what a listing leaves out). */
export async function mayOnItem(list: List, item: Item, kind: PermissionKind, ctx: ApiContext): Promise<boolean> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return hasPermission(ctx.principal, kind);
  const web = list.webId === ctx.web.id ? ctx.web : await ctx.store.sites.web(list.webId) ?? ctx.web;
  return grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'item', web, list, id: item.id, dir: item.place.dir }), kind);
}

/** `kind` on the folder at `dir` of `list` ('' its root folder: the list). */
export const requireInFolder = (list: List, dir: string, kind: PermissionKind, ctx: ApiContext): Promise<void> =>
  requireOn((web) => folderSecurable(ctx.store, ctx.site, web, list, dir), list, kind, ctx);

/** `kind` on a web, list or item as permission questions name it (the role assignments read of it). */
export async function requireOnSecurable(securable: Securable, kind: PermissionKind, ctx: ApiContext): Promise<void> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return requirePermission(ctx.principal, kind);
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, securable), kind)) throw fail.accessDenied();
}
