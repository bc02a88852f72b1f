// SP.User and SP.Group entities (reference §5). A site user is a row of the User Information
// List seen as a principal; the directory supplies what the row does not hold (the PUID).

import type { Item } from '../../../domain/model.ts';
import type { DirectoryUser } from '../../../store/directory.ts';
import type { StoreReader } from '../../../store/store.ts';
import type { Entity, Value } from '../../../wire/values.ts';
import type { SiteGroupDef } from '../../../identity/site-groups.ts';
import { SYSTEM_ACCOUNT_ID } from '../../../identity/site-users.ts';
import type { ApiContext } from './context.ts';

/** `odata.metadata` names: `#SP.ApiData.Users1` (CONFIRMED §5) and `#SP.ApiData.Groups1`. */
export const USERS_METADATA = 'SP.ApiData.Users1';
export const GROUPS_METADATA = 'SP.ApiData.Groups1';

/** SharePoint's PrincipalType enum (§5). */
export const PrincipalType = { User: 1, SecurityGroup: 4, SharePointGroup: 8 } as const;

export interface SiteUserRecord {
  id: number;
  loginName: string;
  title: string;
  email: string | null;
  isSiteAdmin: boolean;
  hidden: boolean;
  principalType: 1 | 4;
  /** `UserId`: the PUID for directory users, the SID-style id for the System Account, null for groups. */
  userId: { nameId: string; issuer: string } | null;
  userPrincipalName: string | null;
}

const USER_CLAIM = /^i:0#\.f\|membership\|/i;
const APP_LOGIN = 'sharepoint\\app';
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A User Information List row as a principal. `user` is the directory user behind it, if any. */
export function siteUserRecord(item: Item, user: DirectoryUser | undefined): SiteUserRecord {
  const v = item.values;
  const loginName = text(v.Name) ?? '';
  const isUser = USER_CLAIM.test(loginName) || user !== undefined;
  // App-only callers' `SHAREPOINT\app` ("SharePoint App") is a user to SharePoint, with no UPN or UserId.
  const isApp = loginName.toLowerCase() === APP_LOGIN;
  return {
    id: item.id, loginName, title: text(v.Title) ?? '',
    // Users without a mail have "" (as SharePoint writes it); groups and claims have their mail or null.
    email: isUser || isApp ? text(v.EMail) ?? '' : text(v.EMail),
    isSiteAdmin: Boolean(v.IsSiteAdmin), hidden: Boolean(v.UserInfoHidden),
    principalType: isUser || isApp ? PrincipalType.User : PrincipalType.SecurityGroup,
    userId: isUser && user ? { nameId: user.puid, issuer: 'urn:federation:microsoftonline' } : null,
    userPrincipalName: isUser ? user?.upn ?? text(v.UserName) ?? loginName.replace(USER_CLAIM, '') : null,
  };
}

/** The directory user a row stands for (by its UserName, else its claims login). */
export async function directoryUserOfRow(store: StoreReader, item: Item): Promise<DirectoryUser | undefined> {
  const upn = upnOfRow(item);
  return upn ? store.directory.findUser(upn) : undefined;
}

const upnOfRow = (item: Item) => text(item.values.UserName) ?? text(item.values.Name)?.match(/^i:0#\.f\|membership\|(.+)$/i)?.[1];

/**
 * The directory users of many rows with one directory read (a collection of site users),
 * rather than a look-up per row: rows in the order given, undefined where a row is no directory user.
 */
export async function directoryUsersOfRows(store: StoreReader, items: Item[]): Promise<Array<DirectoryUser | undefined>> {
  if (items.length <= 1) return Promise.all(items.map((item) => directoryUserOfRow(store, item)));
  // As findUser answers: a name matches a UPN or an email, and of several matches the first by UPN wins.
  const key = (name: string) => name.trim().toLowerCase();
  const users = (await store.directory.listUsers()).sort((a, b) => (key(a.upn) < key(b.upn) ? -1 : key(a.upn) > key(b.upn) ? 1 : 0));
  const byName = new Map<string, DirectoryUser>();
  for (const user of users) {
    for (const name of [user.upn, user.email]) if (name && !byName.has(key(name))) byName.set(key(name), user);
  }
  return items.map((item) => {
    const upn = upnOfRow(item);
    return upn ? byName.get(key(upn)) : undefined;
  });
}

/** SharePoint's System Account (as R7 captures it): the author of what no user did. */
export const SYSTEM_ACCOUNT: SiteUserRecord = {
  id: SYSTEM_ACCOUNT_ID, loginName: 'SHAREPOINT\\system', title: 'System Account', email: '', isSiteAdmin: true, hidden: false,
  principalType: PrincipalType.User, userId: { nameId: 'S-1-0-0', issuer: 'urn:office:idp:activedirectory' }, userPrincipalName: null,
};

export const userEditLink = (id: number) => `Web/GetUserById(${id})`;
export const groupEditLink = (id: number) => `Web/SiteGroups/GetById(${id})`;

/** SP.User in SharePoint Online's form: its 12 properties in SPO's order (§5, CONFIRMED). */
export function userEntity(user: SiteUserRecord, ctx: ApiContext): Entity {
  const editLink = userEditLink(user.id);
  const userId: Value = user.userId === null ? null
    : { kind: 'complex', type: 'SP.UserIdInfo', props: [['NameId', user.userId.nameId], ['NameIdIssuer', user.userId.issuer]] };
  return {
    type: 'SP.User', id: `${ctx.apiUrl}${editLink}`, editLink,
    deferred: ['Alerts', 'Groups'],
    props: [
      ['Id', user.id], ['IsHiddenInUI', user.hidden], ['LoginName', user.loginName], ['Title', user.title],
      ['PrincipalType', user.principalType], ['Email', user.email], ['Expiration', ''],
      ['IsEmailAuthenticationGuestUser', false], ['IsShareByEmailGuestUser', false], ['IsSiteAdmin', user.isSiteAdmin],
      ['UserId', userId], ['UserPrincipalName', user.userPrincipalName],
    ],
  };
}

/** SP.Group for one of the site's default groups; the Owners group owns all three. */
export function groupEntity(group: SiteGroupDef, ownerTitle: string, ctx: ApiContext): Entity {
  const editLink = groupEditLink(group.id);
  return {
    type: 'SP.Group', id: `${ctx.apiUrl}${editLink}`, editLink,
    deferred: ['Owner', 'Users'],
    props: [
      ['Id', group.id], ['IsHiddenInUI', false], ['LoginName', group.title], ['Title', group.title],
      ['PrincipalType', PrincipalType.SharePointGroup], ['AllowMembersEditMembership', group.allowMembersEditMembership],
      ['AllowRequestToJoinLeave', false], ['AutoAcceptRequestToJoinLeave', false], ['Description', group.description],
      ['OnlyAllowMembersViewMembership', group.onlyAllowMembersViewMembership], ['OwnerTitle', ownerTitle], ['RequestToJoinLeaveEmailSetting', null],
    ],
  };
}
