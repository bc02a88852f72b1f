// A site collection's users: rows of its hidden User Information List. A person or group
// gets a row the first time a site needs one (listed in a role, authenticated, named in an
// item, or EnsureUser'd), and keeps its id for good.

import type { Field, Item, List, Site, StoredValue } from '../domain/model.ts';
import { USER_INFO_LIST_TEMPLATE } from '../domain/templates.ts';
import { toStoredValue } from '../domain/values.ts';
import type { Store, StoreReader } from '../store/store.ts';
import type { DirectoryGroup, DirectoryUser } from '../store/directory.ts';

export const userLogin = (upn: string) => `i:0#.f|membership|${upn.toLowerCase()}`;
export const groupLogin = (group: DirectoryGroup) => group.kind === 'm365'
  ? `c:0o.c|federateddirectoryclaimprovider|${group.id.toLowerCase()}`
  : `c:0t.c|tenant|${group.id.toLowerCase()}`;
export const EVERYONE_LOGIN = 'c:0(.s|true';
/** SharePoint's System Account, the author of rows no user added. */
export const SYSTEM_ACCOUNT_ID = 1073741823;
export const everyoneExceptExternalLogin = (tenantId: string) => `c:0-.f|rolemanager|spo-grid-all-users/${tenantId}`;

/** Whoever can hold a row: a directory user or group, or one of the built-in claims. */
export type SitePrincipal =
  | { kind: 'user'; user: DirectoryUser }
  | { kind: 'group'; group: DirectoryGroup }
  | { kind: 'special'; loginName: string; title: string };

/** Where a user's photo is served (see userphoto.aspx): the UIL's Picture points here. */
export const userPhotoUrl = (user: DirectoryUser, size: 'S' | 'M' | 'L' = 'L') =>
  `/_layouts/15/userphoto.aspx?size=${size}&accountname=${encodeURIComponent(user.email ?? user.upn)}`;

export async function userInfoList(store: StoreReader, site: Site): Promise<{ list: List; fields: Field[] }> {
  const list = (await store.lists.inWeb(site.rootWebId)).find((l) => l.baseTemplate === USER_INFO_LIST_TEMPLATE);
  if (!list) throw new Error(`site ${site.url} has no User Information List`);
  return { list, fields: await store.fields.of(list) };
}

/** The row whose Name (claims login) is `loginName`, ignoring case. */
export async function findSiteUser(store: StoreReader, site: Site, loginName: string): Promise<Item | undefined> {
  const { list, fields } = await userInfoList(store, site);
  const page = await store.items.query(list, fields, {
    filter: { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['Name'] }, right: { kind: 'literal', type: 'string', value: loginName } },
    orderBy: [], top: 1, lookups: new Map(),
  });
  return page.items[0];
}

export function loginNameOf(who: SitePrincipal): string {
  return who.kind === 'user' ? userLogin(who.user.upn) : who.kind === 'group' ? groupLogin(who.group) : who.loginName;
}

async function rowValues(store: StoreReader, who: SitePrincipal, siteAdmin: boolean): Promise<Record<string, unknown>> {
  const common = { IsSiteAdmin: siteAdmin, Deleted: false, UserInfoHidden: false };
  if (who.kind === 'user') {
    const u = who.user;
    const photo = await store.directory.getPhoto(u.upn);
    return {
      ...common, Title: u.displayName, Name: userLogin(u.upn), EMail: u.email, FirstName: u.firstName, LastName: u.lastName,
      JobTitle: u.jobTitle, Department: u.department, UserName: u.upn,
      Picture: photo ? { Url: userPhotoUrl(u), Description: userPhotoUrl(u) } : null,
    };
  }
  if (who.kind === 'group') return { ...common, Title: who.group.displayName, Name: groupLogin(who.group), EMail: who.group.mail };
  return { ...common, Title: who.title, Name: who.loginName };
}

/** The principal's row, created on first use. `actorId` is who adds it (defaults to the row itself). */
export async function ensureSiteUser(store: Store, site: Site, who: SitePrincipal, options: { siteAdmin?: boolean; now: string; actorId?: number }): Promise<Item> {
  const existing = await findSiteUser(store, site, loginNameOf(who));
  if (existing) return existing;
  // Check again holding the list: concurrent EnsureUser calls (on other connections or
  // instances of a shared database) for one principal then make one row.
  return store.transaction(async (tx) => {
    const { list, fields } = await userInfoList(tx, site);
    await tx.lists.lock(list);
    const found = await findSiteUser(tx, site, loginNameOf(who));
    if (found) return found;
    const values: Record<string, StoredValue> = {};
    for (const [name, raw] of Object.entries(await rowValues(tx, who, options.siteAdmin ?? false))) {
      values[name] = toStoredValue(fields.find((f) => f.internalName === name)!, raw);
    }
    // Rows nobody in particular adds are SharePoint's System Account's doing.
    return tx.items.create(list, fields, { values, actorId: options.actorId ?? SYSTEM_ACCOUNT_ID, now: options.now });
  });
}

/** Resolves a name used in tenant files and role lists: a UPN, an email, a group id or a group name. */
export async function directoryPrincipal(store: StoreReader, name: string): Promise<SitePrincipal | undefined> {
  const user = await store.directory.findUser(name);
  if (user) return { kind: 'user', user };
  const group = await store.directory.findGroup(name);
  return group ? { kind: 'group', group } : undefined;
}
