// What a principal may do on one securable object (a web, a list, an item), now that objects
// can stop inheriting. An object's permissions come from the nearest object up the chain
// (item → its folders, nearest first → list → web → parent webs) with unique permissions: its role assignments, each a
// principal (a site user, a SharePoint group) bound to a permission level. With no unique
// object in the chain the site's own model applies: its role holders (owners Full Control,
// members Edit, visitors Read), as the root web's implicit assignments to the default groups
// say. Site collection administrators (owners) may do everything everywhere, as in SharePoint.
//
// A site's unique scopes and their assignments are one cached read; a site with none costs
// nothing more than before, and no check costs a query per item. A folder's scope governs
// what is inside it: where a list has items with unique permissions, which of them are folders
// (and where) is the store's cached entry for that list (folderScopes), dropped on every
// instance by the writes that can change it (folder-scopes.ts in the SQL store).

import type { List, Principal, Site, Web } from '../domain/model.ts';
import { EMPTY_PERMISSIONS, ROLE_DEFINITIONS, ROLE_LEVEL, permissionsOfRole, type BasePermissions } from '../domain/permissions.ts';
import { allRoleDefinitions } from './role-levels.ts';
import type { FolderScope, RoleAssignmentRow } from '../store/role-assignments.ts';
import type { StoreReader } from '../store/store.ts';
import { siteGroupOfRole } from './site-groups.ts';
import { EVERYONE_LOGIN, groupLogin, SYSTEM_ACCOUNT_ID } from './site-users.ts';
import { USER_INFO_LIST_TEMPLATE } from '../domain/templates.ts';
import { itemScopeKey, listScopeKey, uniqueItemIds, webScopeKey } from '../domain/scope-keys.ts';
import { GenerationMemo } from '../domain/generation-memo.ts';

export type Securable =
  | { kind: 'web'; web: Web }
  | { kind: 'list'; web: Web; list: List }
  /**
   * `dir`: the folder the item is in (relative to the list's root), and `folders`: the list's
   * folders with unique permissions (itemScopesOf), when the caller knows them (a loop over a
   * page of items); else they are read where the list has items with unique permissions.
   */
  | { kind: 'item'; web: Web; list: List; id: number; dir?: string | undefined; folders?: readonly FolderScope[] | undefined };

type Reader = Pick<StoreReader, 'roleAssignments' | 'roleDefinitions' | 'siteGroups' | 'sites' | 'lists' | 'fields' | 'items' | 'directory' | 'settings' | 'generation'>;

export const scopeKey = (s: Securable): string =>
  s.kind === 'web' ? webScopeKey(s.web.id) : s.kind === 'list' ? listScopeKey(s.list.rowId) : itemScopeKey(s.list.rowId, s.id);

/** The root web's implicit assignments: the default groups with their levels (Owners Full Control, Visitors Read, Members Edit). */
export function defaultAssignments(site: Site): RoleAssignmentRow[] {
  return (['owner', 'visitor', 'member'] as const).map((role) => ({ principalId: siteGroupOfRole(site, role).id, roleDefinitionId: ROLE_LEVEL[role].id }));
}

export type { FolderScope };

/**
 * The list's items with unique permissions, and which of them are folders, with their paths:
 * nothing read where the list has none; where it has, the folders are the store's cached entry
 * for the list (roleAssignments.folderScopes), which folder moves, renames and deletions drop
 * on every instance.
 */
export async function itemScopesOf(store: Pick<StoreReader, 'roleAssignments'>, site: Site, list: List): Promise<{ ids: number[]; folders: readonly FolderScope[] }> {
  const ids = uniqueItemIds(await store.roleAssignments.scopes(site.id), list.rowId);
  if (ids.length === 0) return { ids, folders: [] };
  return { ids, folders: await store.roleAssignments.folderScopes(site.id, list) };
}

/** Whether `path` (a folder's, relative to the list's root) is `folder` or below it; as SharePoint's URLs, regardless of case. */
export const isAtOrBelow = (path: string, folder: string): boolean => {
  const p = path.toLowerCase(), f = folder.toLowerCase();
  return p === f || p.startsWith(`${f}/`);
};

/** The folder scopes that hold `dir` (a folder path inside the list, '' the root), nearest first. */
export const foldersHolding = (folders: readonly FolderScope[], dir: string): FolderScope[] =>
  dir === '' ? [] : folders.filter((f) => isAtOrBelow(dir, f.path)).sort((a, b) => b.path.length - a.path.length);

/**
 * What governs the folder at `path` (relative to the list's root; '' the root folder): the
 * nearest folder with unique permissions holding it (itself included), else the list. A folder
 * that inherits needs no read of its own: its permissions are its holder's.
 */
export async function folderSecurable(store: Pick<StoreReader, 'roleAssignments' | 'items'>, site: Site, web: Web, list: List, path: string): Promise<Securable> {
  const { folders } = await itemScopesOf(store, site, list);
  const nearest = foldersHolding(folders, path)[0];
  if (!nearest) return { kind: 'list', web, list };
  const slash = nearest.path.lastIndexOf('/');
  return { kind: 'item', web, list, id: nearest.id, dir: slash < 0 ? '' : nearest.path.slice(0, slash) };
}

/**
 * Where items checked by id alone were found, per list folder-scopes entry (the cached array):
 * an item's folder changes only by a move or rename in its list, and each of those drops the
 * list's folder scopes on every instance, so what was read under one entry holds while it is
 * cached. A check of an item by id then reads no row (the handler reads it anyway). Ids are
 * never reused: an item deleted since is checked as where it was, which the caller could not
 * see then either.
 */
const itemDirs = new WeakMap<readonly FolderScope[], Map<number, string>>();
/** Most item folders remembered per list (past it they are read again). */
const MAX_ITEM_DIRS = 10_000;

async function itemDir(store: Pick<StoreReader, 'items'>, list: List, id: number, folders: readonly FolderScope[]): Promise<string> {
  const known = itemDirs.get(folders)?.get(id);
  if (known !== undefined) return known;
  const item = await store.items.get(list, [], id, [], ['place']);
  if (!item) return '';
  let dirs = itemDirs.get(folders);
  if (!dirs) itemDirs.set(folders, (dirs = new Map()));
  if (dirs.size >= MAX_ITEM_DIRS) dirs.clear();
  dirs.set(id, item.place.dir);
  return item.place.dir;
}

/** The object and its parents, nearest first: an item's folders and list, a list's web, a web's parent webs. */
export async function chainOf(store: Pick<StoreReader, 'sites' | 'roleAssignments' | 'items'>, site: Site, s: Securable): Promise<Securable[]> {
  const chain: Securable[] = [s];
  if (s.kind === 'item') {
    const folders = s.folders ?? (await itemScopesOf(store, site, s.list)).folders;
    if (folders.length > 0) {
      const dir = s.dir ?? await itemDir(store, s.list, s.id, folders);
      for (const f of foldersHolding(folders, dir)) chain.push({ kind: 'item', web: s.web, list: s.list, id: f.id });
    }
    chain.push({ kind: 'list', web: s.web, list: s.list });
  }
  if (s.kind !== 'web') chain.push({ kind: 'web', web: s.web });
  for (let web = s.web; web.parentId !== null;) {
    const parent = await store.sites.web(web.parentId);
    if (!parent) break;
    chain.push({ kind: 'web', web: parent });
    web = parent;
  }
  return chain;
}

/** Where the object's permissions are defined: the nearest object with unique permissions, or none (the site's model). */
export async function uniqueAncestor(store: Reader, site: Site, s: Securable): Promise<{ securable: Securable; assignments: readonly RoleAssignmentRow[] } | undefined> {
  const scopes = await store.roleAssignments.scopes(site.id);
  if (scopes.size === 0) return undefined;
  for (const link of await chainOf(store, site, s)) {
    const assignments = scopes.get(scopeKey(link));
    if (assignments) return { securable: link, assignments };
  }
  return undefined;
}

/** The object's role assignments as they apply to it: its own, its nearest unique ancestor's, or the root web's implicit ones. */
export async function assignmentsOf(store: Reader, site: Site, s: Securable): Promise<{ assignments: readonly RoleAssignmentRow[]; unique: boolean; inheritedFrom?: Securable | undefined }> {
  const found = await uniqueAncestor(store, site, s);
  if (!found) return { assignments: defaultAssignments(site), unique: s.kind === 'web' && s.web.parentId === null };
  return { assignments: found.assignments, unique: scopeKey(found.securable) === scopeKey(s), inheritedFrom: found.securable };
}

/** The principal ids a user counts as at the site: their own row, the default group of their role, the site's own groups they are in. */
async function principalIds(store: Reader, site: Site, principal: Principal): Promise<Set<number>> {
  const ids = new Set<number>([principal.userId]);
  // The default group of the user's role (group membership is explicit: a member is not a visitor).
  if (principal.role !== 'none') ids.add(siteGroupOfRole(site, principal.role).id);
  for (const g of await store.siteGroups.groupsOf(site.id, principal.userId)) ids.add(g);
  for (const id of await coveringRows(store, site, principal, ids)) ids.add(id);
  return ids;
}

/**
 * The rows of the User Information List, among the principals of the site's role assignments,
 * that stand for the user without being them: "Everyone", "Everyone except external users"
 * (every directory user is internal in spemu) and the directory groups they are in. Sharing
 * with these (shareObject, addRoleAssignment) gives every user they cover the access. Only
 * assignments to principals the user is not already known as are looked at, so a site whose
 * assignments name users and SharePoint groups reads nothing more than their cached rows.
 */
async function coveringRows(store: Reader, site: Site, principal: Principal, known: ReadonlySet<number>): Promise<number[]> {
  if (principal.userId === -1 && !principal.upn) return [];
  const groups = new Set((await store.siteGroups.of(site.id)).map((g) => g.id));
  for (const role of ['owner', 'member', 'visitor'] as const) groups.add(siteGroupOfRole(site, role).id);
  const candidates = new Set<number>();
  for (const rows of (await store.roleAssignments.scopes(site.id)).values()) {
    for (const a of rows) if (!known.has(a.principalId) && !groups.has(a.principalId)) candidates.add(a.principalId);
  }
  if (candidates.size === 0) return [];
  const list = (await store.lists.inWeb(site.rootWebId)).find((l) => l.baseTemplate === USER_INFO_LIST_TEMPLATE);
  if (!list) return [];
  const rows = await store.items.getMany(list, await store.fields.of(list), [...candidates]);
  const covering: number[] = [];
  let directoryGroups: Set<string> | undefined;
  for (const row of rows) {
    const login = String(row.values.Name ?? '').toLowerCase();
    if (login === EVERYONE_LOGIN || login.startsWith('c:0-.f|rolemanager|spo-grid-all-users/')) { covering.push(row.id); continue; }
    if (!principal.upn || !/^c:0(t\.c\|tenant|o\.c\|federateddirectoryclaimprovider)\|/.test(login)) continue;
    directoryGroups ??= new Set((await store.directory.groupsOf(principal.upn)).map((g) => groupLogin(g)));
    if (directoryGroups.has(login)) covering.push(row.id);
  }
  return covering;
}

/** The mask a set of assignments gives a principal. */
async function maskOf(store: Reader, site: Site, principal: Principal, assignments: readonly RoleAssignmentRow[], known?: ReadonlySet<number>): Promise<BasePermissions> {
  const ids = known ?? await principalIds(store, site, principal);
  const levels = new Map((await allRoleDefinitions(store, site.id)).map((d) => [d.id, d.permissions]));
  let mask = EMPTY_PERMISSIONS;
  for (const a of assignments) {
    if (!ids.has(a.principalId)) continue;
    const level = levels.get(a.roleDefinitionId);
    if (level) mask = { high: (mask.high | level.high) >>> 0, low: (mask.low | level.low) >>> 0 };
  }
  return mask;
}

/**
 * Masks already worked out, per principal object and object, while the store's generation
 * stands. A principal object is one caller's: site-principals.ts hands every request of one
 * identity on one site the same frozen one for as long as the generation stands, and builds
 * a new one otherwise (a caller with no site role, anyone else's principal a handler makes).
 * Everything a mask is made of is cached metadata whose every change moves the generation: the
 * site's scopes and assignments, a list's folder scopes (and the item folders kept with them),
 * webs, site groups and their members, role definitions, directory memberships, the User
 * Information List's rows. Never shared across callers; nothing kept inside a transaction (NaN).
 */
const knownMasks = new GenerationMemo<Principal, string, BasePermissions>(1_000);

/** What `principal` may do on the object. */
export async function effectivePermissions(store: Reader, site: Site, principal: Principal, s: Securable): Promise<BasePermissions> {
  if (principal.userId === SYSTEM_ACCOUNT_ID || principal.role === 'owner') return ROLE_DEFINITIONS[0]!.permissions;
  const generation = store.generation();
  // An item checked in a given folder may be one not placed yet (a file's upload): its folder is part of the key.
  const key = `${site.id}\n${scopeKey(s)}${s.kind === 'item' && s.dir !== undefined ? `\n${s.dir}` : ''}`;
  const hit = knownMasks.get(principal, generation, key);
  if (hit) return hit;
  const mask = await workOutPermissions(store, site, principal, s);
  knownMasks.keep(principal, generation, store.generation(), key, mask);
  return mask;
}

async function workOutPermissions(store: Reader, site: Site, principal: Principal, s: Securable): Promise<BasePermissions> {
  const found = await uniqueAncestor(store, site, s);
  // Someone with no site role reached the site through an assignment somewhere in it (authorize):
  // where nothing of theirs applies they have Limited Access, as SharePoint gives them.
  if (!found) {
    if (principal.role !== 'none') return permissionsOfRole(principal.role);
    return (await hasAnyAssignment(store, site, principal)) ? limitedAccess() : EMPTY_PERMISSIONS;
  }
  const mask = await maskOf(store, site, principal, found.assignments);
  // The same on a web whose assignments are explicit (the root web's are, after their first
  // change): SharePoint adds Limited Access there when it shares something inside with them.
  if (principal.role === 'none' && found.securable.kind === 'web' && mask.high === 0 && mask.low === 0
    && await hasAnyAssignment(store, site, principal)) return limitedAccess();
  return mask;
}

const limitedAccess = () => ROLE_DEFINITIONS.find((d) => d.name === 'Limited Access')!.permissions;

/** Whether the principal has any assignment in the site (a user without a site role may still reach what they were given). */
export async function hasAnyAssignment(store: Reader, site: Site, principal: Principal): Promise<boolean> {
  const scopes = await store.roleAssignments.scopes(site.id);
  if (scopes.size === 0) return false;
  const ids = await principalIds(store, site, principal);
  for (const rows of scopes.values()) if (rows.some((a) => ids.has(a.principalId))) return true;
  return false;
}

/**
 * Who sees what of a list's items, where something in it has unique permissions: whether the
 * list's own permissions let the principal view (`inherited`), the items with unique
 * permissions they may and may not view (`visibleIds`, `hiddenIds`: folders among them), and
 * the folders with unique permissions with whether the principal may view what is inside them.
 * An item's own scope decides first, then the nearest folder holding it, then the list.
 * Undefined where nothing in the list is unique (the list's permission decides alone).
 */
export interface ItemVisibility {
  inherited: boolean;
  visibleIds: number[];
  hiddenIds: number[];
  folders: Array<FolderScope & { visible: boolean }>;
}

export async function itemVisibility(store: Reader, site: Site, principal: Principal, web: Web, list: List, kind: (mask: BasePermissions) => boolean): Promise<ItemVisibility | undefined> {
  if (principal.userId === SYSTEM_ACCOUNT_ID || principal.role === 'owner') return undefined;
  const scopes = await store.roleAssignments.scopes(site.id);
  const { ids: unique, folders } = await itemScopesOf(store, site, list);
  if (unique.length === 0) return undefined;
  // Who the principal counts as is the same for every scope: worked out once.
  const ids = await principalIds(store, site, principal);
  const visible = new Map<number, boolean>();
  for (const id of unique) visible.set(id, kind(await maskOf(store, site, principal, scopes.get(itemScopeKey(list.rowId, id)) ?? [], ids)));
  return {
    inherited: kind(await effectivePermissions(store, site, principal, { kind: 'list', web, list })),
    visibleIds: unique.filter((id) => visible.get(id)),
    hiddenIds: unique.filter((id) => !visible.get(id)),
    folders: folders.map((f) => ({ ...f, visible: visible.get(f.id)! })),
  };
}

/** Whether an item (`id`, in folder `dir`) is visible by the rule: its own scope, else its nearest unique folder, else the list. */
export function isVisible(rule: ItemVisibility, id: number, dir: string | undefined): boolean {
  if (rule.visibleIds.includes(id)) return true;
  if (rule.hiddenIds.includes(id)) return false;
  const nearest = dir === undefined ? undefined : foldersHolding(rule.folders, dir)[0];
  return nearest ? (nearest as FolderScope & { visible: boolean }).visible : rule.inherited;
}
